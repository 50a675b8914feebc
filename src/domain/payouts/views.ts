/**
 * The public Payout (extensions.md "Payouts (money out)", "Payout object"): an explicit
 * allowlist. `destination` is the destination as it was when the payout was made (a snapshot:
 * removing or re-registering it later does not change past payouts). Times ISO 8601 UTC.
 */
import { iso } from "../../lib/clock";
import { Currency, DateTime, JsonObject, Money, Nullable, OneOf, Type, View, type Static } from "../../lib/view-schema";
import type { PayoutRow } from "../../store/rows";
import { PayoutDestinationSchema, type PublicPayoutDestination } from "./destination-views";
import { PAYOUT_STATUSES, type PayoutStatus } from "./model";

export const PayoutSchema = View("Payout", {
  id: Type.String({ examples: ["po_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"] }),
  object: Type.Literal("payout"),
  amount: Money({ minimum: 1 }),
  fee: Money({
    minimum: 0,
    description: "Platform fee (the account's payout_fee_fixed), centavos; amount + fee left the available balance.",
  }),
  currency: Currency(),
  status: OneOf(PAYOUT_STATUSES),
  destination: PayoutDestinationSchema,
  description: Nullable(Type.String({ maxLength: 140 })),
  metadata: JsonObject(),
  end_to_end_id: Nullable(
    Type.String({
      description: "Pix end-to-end id (32 characters), once known.",
      examples: ["E9999999920261120120012345abcdeF"],
    }),
  ),
  failure_code: Nullable(Type.String()),
  failure_message: Nullable(Type.String()),
  livemode: Type.Boolean(),
  created_at: DateTime(),
  paid_at: Nullable(DateTime()),
  failed_at: Nullable(DateTime()),
  cancelled_at: Nullable(DateTime()),
});
export type PublicPayout = Static<typeof PayoutSchema>;

/** GET /v1/payouts. */
export const PayoutListSchema = View("PayoutList", {
  object: Type.Literal("list"),
  data: Type.Array(PayoutSchema),
  has_more: Type.Boolean(),
  next_cursor: Nullable(Type.String({ description: "The last payout's id: pass it as starting_after." })),
});

/**
 * What a payout row keeps of its destination (`payouts.destination`, JSON): the public view plus the raw tax id and key
 * the PSP needs.
 */
export interface DestinationSnapshot {
  view: PublicPayoutDestination;
  /** Unmasked, for the send only (never returned). */
  taxId: string | null;
  pixKey: string | null;
}

const at = (ms: number | null) => (ms === null ? null : iso(ms));

/** The Payout of `row`. */
export function toPayout(row: PayoutRow): PublicPayout {
  return {
    id: row.id,
    object: "payout",
    amount: row.amount,
    fee: row.fee,
    currency: row.currency,
    status: row.status as PayoutStatus,
    destination: (JSON.parse(row.destination) as DestinationSnapshot).view,
    description: row.description,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    end_to_end_id: row.endToEndId,
    failure_code: row.failureCode,
    failure_message: row.failureMessage,
    livemode: row.livemode,
    created_at: iso(row.createdAt),
    paid_at: at(row.paidAt),
    failed_at: at(row.failedAt),
    cancelled_at: at(row.cancelledAt),
  };
}
