/** The public Refund (interface.md "Refund"): an explicit allowlist; the provider's refund id is never returned. */
import type { refunds } from "../../../db/schema";
import { iso } from "../../lib/clock";

export type RefundRow = typeof refunds.$inferSelect;

export interface PublicRefund {
  id: string;
  transactionId: string;
  amount: number;
  currency: string;
  status: string;
  reason: string | null;
  createdAt: string;
}

/** Refund object of `row`: `id`, `transactionId` (raw id), `amount`, `currency`, `status`, `reason`, `createdAt`. */
export function toRefund(row: RefundRow): PublicRefund {
  return {
    id: row.id,
    transactionId: row.transactionId,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    reason: row.reason ?? null,
    createdAt: iso(row.createdAt),
  };
}
