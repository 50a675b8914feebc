/**
 * The public reconciliation of a São Paulo day (extensions.md "Statement, exports and
 * reconciliation"): `{date, status, psp: {received, sent}, cofre: {received, sent}, differences}`;
 * each difference `{kind, end_to_end_id, reference_id, psp_amount, cofre_amount, healed}` where
 * `healed` is true for a Pix received on one of our cobs that Cofre had not settled and has now
 * queued for confirmation through the normal path. `reconciled_at` is when it was computed.
 */
import { Closed, DateTime, Nullable, OneOf, Type, View, type Static } from "../../lib/view-schema";

export const DIFFERENCE_KINDS = ["missing_in_cofre", "missing_at_psp", "amount_differs", "status_differs"] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

const Totals = Closed({
  count: Type.Integer({ minimum: 0 }),
  amount: Type.Integer({ minimum: 0, description: "Centavos." }),
});
const Side = Closed({ received: Totals, sent: Totals });

export const ReconciliationDifferenceSchema = View("ReconciliationDifference", {
  kind: OneOf(DIFFERENCE_KINDS),
  end_to_end_id: Nullable(Type.String({ examples: ["E9999999920261120120012345abcdeF"] })),
  reference_id: Nullable(
    Type.String({
      description:
        "Cofre's object (`ch_`, `po_`, `re_`) or, for an infraction on an unknown Pix, the PSP's `idInfracao`.",
      examples: ["ch_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a"],
    }),
  ),
  psp_amount: Nullable(Type.Integer({ description: "Centavos at the PSP (null when the PSP has none)." })),
  cofre_amount: Nullable(Type.Integer({ description: "Centavos in Cofre (null when Cofre has none)." })),
  healed: Type.Boolean({ description: "A Pix on one of our cobs that Cofre missed, now queued for confirmation." }),
});

export const ReconciliationSchema = View("Reconciliation", {
  object: Type.Literal("reconciliation"),
  date: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", examples: ["2026-11-27"] }),
  status: OneOf(["matched", "mismatched"] as const),
  psp: Side,
  cofre: Side,
  differences: Type.Array(ReconciliationDifferenceSchema),
  reconciled_at: DateTime(),
});
export type PublicReconciliation = Static<typeof ReconciliationSchema>;
export type PublicDifference = Static<typeof ReconciliationDifferenceSchema>;

/** GET /v1/reconciliation without a date: the stored days of the last 30, newest first. */
export const ReconciliationListSchema = View("ReconciliationList", {
  object: Type.Literal("list"),
  data: Type.Array(ReconciliationSchema),
});
