/** The payments repository of the storage port (methods in domain terms; see src/store/port.ts). */
import type { TransactionRow } from "../rows";

/**
 * Top-level fields of the transaction shape `GET /v1/payments` sorts by (interface.md; method fields sort by their
 * stored detail).
 */
export type PaymentSortField =
  | "id"
  | "status"
  | "amount"
  | "currency"
  | "paymentMethods"
  | "customerName"
  | "customerDocument"
  | "customerEmail"
  | "metadata"
  | "createdAt"
  | "paidWith"
  | "pixQrCode"
  | "pixCopyPaste"
  | "pixExpiresAt"
  | "cardRedirectUrl"
  | "mbEntity"
  | "mbReference"
  | "mbExpiresAt"
  | "boletoBarcode"
  | "boletoLine"
  | "boletoPdfUrl"
  | "boletoExpiresAt"
  | "cryptoAddress"
  | "cryptoAmount"
  | "cryptoNetwork"
  | "cryptoCurrency"
  | "platformFee"
  | "paidAt";

/** One page request of `GET /v1/payments` (interface.md), already validated. Times in epoch ms. */
export interface PaymentListQuery {
  accountId: string;
  livemode: boolean;
  /** 1-based. */
  page: number;
  /** 1-100. */
  limit: number;
  status?: string;
  /** Inclusive lower bound on `createdAt`. */
  startMs?: number;
  /** Inclusive upper bound on `createdAt`. */
  endMs?: number;
  sortBy: PaymentSortField;
  sortOrder: "asc" | "desc";
  /** Exact match on the id (raw or `ch_`), Pix txid, end-to-end id, or customer CPF/CNPJ (punctuation ignored). */
  search?: string;
  /** Paid with this method, or not paid yet and offering it. */
  paymentMethod?: string;
}

/**
 * Listings of the payments group over `transactions` (the rows themselves belong to the charges
 * repository). Every method is asynchronous; inside `store.tx` it runs in the unit of work.
 */
export interface PaymentsRepo {
  /**
   * One page of the scope's transactions matching `q` and the exact total matching it (ties of
   * the sort key in insertion order). A page past the total is empty without reading rows.
   */
  page(q: PaymentListQuery): Promise<{ rows: TransactionRow[]; total: number }>;
  /**
   * Bodies (JSON text) of the last `limit` legacy-family events of transaction `transactionId`,
   * newest first (what a resend reads to find the status a transaction came from).
   */
  recentLegacyEventBodies(transactionId: string, limit: number): Promise<string[]>;
}
