/**
 * Statuses of the underlying transaction and their public charge mapping
 * (interface.md "Transaction status (payments group) and its public mapping").
 */

export const TRANSACTION_STATUSES = [
  "PENDING",
  "WAITING_PAYMENT",
  "PROCESSING",
  "PAID",
  "APPROVED",
  "REFUSED",
  "CANCELLED",
  "EXPIRED",
  "REFUNDED",
  "CHARGEBACK",
  "DISPUTE",
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const CHARGE_STATUSES = ["pending", "processing", "paid", "failed", "expired", "cancelled", "refunded", "disputed"] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** Public charge status of each transaction status (the spec's mapping table, verbatim). */
export const PUBLIC_STATUS: Record<TransactionStatus, ChargeStatus> = {
  PENDING: "pending",
  WAITING_PAYMENT: "pending",
  PROCESSING: "processing",
  PAID: "paid",
  APPROVED: "paid",
  REFUSED: "failed",
  CANCELLED: "cancelled",
  EXPIRED: "expired",
  REFUNDED: "refunded",
  CHARGEBACK: "disputed",
  DISPUTE: "disputed",
};

/** Transaction statuses that a public charge status filter selects (inverse of PUBLIC_STATUS). */
export function transactionStatusesFor(status: ChargeStatus): TransactionStatus[] {
  return TRANSACTION_STATUSES.filter((s) => PUBLIC_STATUS[s] === status);
}

export const PAYMENT_METHODS = ["PIX", "CREDIT_CARD", "MBWAY", "MULTIBANCO", "BOLETO", "CRYPTO"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Statuses a transaction can still be cancelled from (interface.md transaction transitions). */
export const CANCELLABLE: readonly TransactionStatus[] = ["WAITING_PAYMENT", "PENDING", "PROCESSING"];
/** Settled statuses (refundable). */
export const SETTLED: readonly TransactionStatus[] = ["PAID", "APPROVED"];
