/** The public Refund (interface.md "Refund"): an explicit allowlist; the provider's refund id is never returned. */
import { iso } from "../../lib/clock";
import { Currency, DateTime, Money, Nullable, OneOf, Type, View, type Static } from "../../lib/view-schema";
import { REFUND_STATUSES, type RefundStatus } from "./model";

import type { RefundRow } from "../../store/rows";

export type { RefundRow };

/** The Refund object (interface.md "Refund"). */
export const RefundSchema = View("Refund", {
  id: Type.String({ examples: ["re_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  transactionId: Type.String({ description: "Raw id of the refunded transaction." }),
  amount: Money(),
  currency: Currency(),
  status: OneOf(REFUND_STATUSES),
  reason: Nullable(Type.String()),
  createdAt: DateTime(),
});
export type PublicRefund = Static<typeof RefundSchema>;

/** GET /v1/payments/{id}/refunds. */
export const RefundListSchema = View("RefundList", { data: Type.Array(RefundSchema) });

/** Refund object of `row`: `id`, `transactionId` (raw id), `amount`, `currency`, `status`, `reason`, `createdAt`. */
export function toRefund(row: RefundRow): PublicRefund {
  return {
    id: row.id,
    transactionId: row.transactionId,
    amount: row.amount,
    currency: row.currency,
    status: row.status as RefundStatus,
    reason: row.reason ?? null,
    createdAt: iso(row.createdAt),
  };
}
