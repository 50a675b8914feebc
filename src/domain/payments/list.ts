/**
 * `GET /v1/payments` (interface.md): page/limit pagination over the caller's transactions of its
 * mode, optional `status`, inclusive `startDate`/`endDate` on `createdAt`, `sortBy` any scalar
 * top-level field of the transaction shape (method fields sort by their stored detail),
 * `sortOrder`. Filters use the (account, livemode, status|created_at) indexes; `total` comes from
 * the daily aggregates without date filters, else from a count over the same filters.
 * `search` (the dashboard's search box) is an exact match on the id (raw or `ch_`), Pix txid or
 * end-to-end id (unique indexes), else on the customer document as sent or as digits (the account's document index).
 * `paymentMethod` (an extension for the dashboard's method filter): the method paid with, or for a
 * transaction not paid yet a method it offers: rows are read in the sort index's order until the
 * page fills; alone, its `total` is the paid rows from the aggregates plus the unpaid rows offering
 * it counted on `tx_account_unpaid_methods_idx`, else a count over the filters. The queries are
 * the payments repository's (src/store/sqlite/payments.ts).
 */
import type { Deps } from "../deps";
import type { PaymentListQuery, PaymentSortField } from "../../store/port/payments";
import type { TransactionRow } from "../../store/rows";
import type { PaymentMethod, TransactionStatus } from "../charges/model";

/**
 * Sortable top-level fields of the transaction shape. A null-prototype object: `sortBy` comes
 * from the query string, so `"constructor" in SORTABLE` must be false.
 */
export const SORTABLE: Readonly<Record<PaymentSortField, true>> = Object.assign(
  Object.create(null) as Record<PaymentSortField, true>,
  {
    id: true,
    status: true,
    amount: true,
    currency: true,
    paymentMethods: true,
    customerName: true,
    customerDocument: true,
    customerEmail: true,
    metadata: true,
    createdAt: true,
    paidWith: true,
    pixQrCode: true,
    pixCopyPaste: true,
    pixExpiresAt: true,
    cardRedirectUrl: true,
    mbEntity: true,
    mbReference: true,
    mbExpiresAt: true,
    boletoBarcode: true,
    boletoLine: true,
    boletoPdfUrl: true,
    boletoExpiresAt: true,
    cryptoAddress: true,
    cryptoAmount: true,
    cryptoNetwork: true,
    cryptoCurrency: true,
    platformFee: true,
    paidAt: true,
  } satisfies Record<PaymentSortField, true>,
);

/** A validated `GET /v1/payments` request (times in epoch ms; see the module header). */
export interface PaymentListRequest extends PaymentListQuery {
  status?: TransactionStatus;
  paymentMethod?: PaymentMethod;
}

/** One page of the caller's transactions and the exact total matching the filters (see the module header). */
export async function listPayments(
  deps: Pick<Deps, "store">,
  q: PaymentListRequest,
): Promise<{ rows: TransactionRow[]; total: number }> {
  return deps.store.read.payments.page(q);
}

/** True when `s` (from the query string) names a sortable field of SORTABLE. */
export function isSortField(s: string): s is PaymentSortField {
  return s in SORTABLE;
}
