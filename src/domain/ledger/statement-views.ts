/**
 * Allowlist view of the statement (extensions.md "Statement, exports and reconciliation"): one
 * line per movement of the wallet's total (available + pending), amounts signed in minor units
 * (centavos), timestamps ISO 8601 UTC.
 */
import { DateTime, Money, Nullable, OneOf, Type, View, type Static } from "../../lib/view-schema";

/** Every statement line type, in the order the spec lists them. */
export const STATEMENT_LINE_TYPES = [
  "charge",
  "fee",
  "refund",
  "refund_reversal",
  "payout",
  "payout_fee",
  "payout_reversal",
  "med_hold",
  "med_release",
] as const;
export type StatementLineType = (typeof STATEMENT_LINE_TYPES)[number];

/** One statement line. */
export const StatementLineSchema = View("StatementLine", {
  id: Type.String({
    description: "`sl_` + the journal entry's raw id + `_0` (the movement) or `_1` (its fee): stable, the OFX FITID.",
    examples: ["sl_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a_0"],
  }),
  created_at: DateTime(),
  type: OneOf(STATEMENT_LINE_TYPES),
  amount: Money({
    description: "Signed minor units: positive credits the wallet, negative debits it.",
    examples: [1500],
  }),
  balance_after: Money({
    description: "The wallet's total (available + pending) right after this line, minor units.",
    examples: [98500],
  }),
  available_on: DateTime({
    description: "When this amount is or was available (a charge: its release; anything else: at once).",
  }),
  description: Type.String({ examples: ["Recebimento"] }),
  reference_id: Nullable(
    Type.String({
      description: "What caused it: the payment (raw transaction id), `re_`, `po_` or `med_` id.",
      examples: ["0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"],
    }),
  ),
});
export type StatementLine = Static<typeof StatementLineSchema>;

/** GET /v1/wallets/statement (JSON). */
export const StatementListSchema = View("StatementList", {
  object: Type.Literal("list"),
  data: Type.Array(StatementLineSchema),
  has_more: Type.Boolean(),
  next_cursor: Nullable(
    Type.String({
      description: "The last line's id: pass it as starting_after.",
      examples: ["sl_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a_0"],
    }),
  ),
});
export type StatementList = Static<typeof StatementListSchema>;
