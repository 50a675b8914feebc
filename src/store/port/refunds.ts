/** The refunds repository of the storage port (methods in domain terms; see src/store/port.ts). */
import type { RefundRow } from "../rows";

/**
 * Refunds of transactions (interface.md "Refund") and the refundable remainder they reserve on
 * their transaction (`transactions.refunded_amount`). Amounts in centavos (minor units), times in
 * epoch ms. Every method is asynchronous; inside `store.tx` it runs in the unit of work.
 */
export interface RefundsRepo {
  /** Stores a new refund row (its `id` from `newId("refund")`). */
  insert(row: RefundRow): Promise<void>;
  /** The refund `id` whatever its account (jobs), or undefined. */
  byId(id: string): Promise<RefundRow | undefined>;
  /** The refund `id` of (account, mode), or undefined (another account's refund is undefined too). */
  byIdScoped(accountId: string, livemode: boolean, id: string): Promise<RefundRow | undefined>;
  /** Every refund of transaction `transactionId`, newest first (`created_at`, then id). */
  listForTransaction(transactionId: string): Promise<RefundRow[]>;
  /**
   * A conditional write: applies `patch` to refund `id` only while its status is still `from`, and
   * returns the row as stored after it; undefined (nothing written) when the refund is gone or
   * has moved since it was read (interface.md "Refund status": one move per status).
   */
  moveFrom(id: string, from: string, patch: Partial<RefundRow>): Promise<RefundRow | undefined>;
  /** Sum of the REFUNDED refunds of transaction `transactionId`, centavos (0 when none). */
  confirmedTotal(transactionId: string): Promise<number>;
  /**
   * Reserves `amount` centavos of the transaction's refundable remainder, a conditional write:
   * adds it to `refunded_amount` only while the transaction's status is one of `statuses` and the
   * total stays <= its amount. Returns false (nothing written) otherwise. The guard that keeps
   * concurrent refunds within the amount whatever the caller read before (interface.md
   * "POST /v1/payments/{id}/refund": `refund_amount_exceeds_remaining`).
   */
  reserveRefundable(transactionId: string, amount: number, statuses: readonly string[], now: number): Promise<boolean>;
  /** Gives `amount` centavos back to the transaction's refundable remainder (a FAILED refund; never below 0). */
  releaseRefundable(transactionId: string, amount: number, now: number): Promise<void>;
}
