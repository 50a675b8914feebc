/**
 * Payout statuses and transitions as data (extensions.md "Payouts (money out)", Lifecycle):
 * `pending` (accepted; `amount + fee` already left `available`) -> `processing` (the send intent
 * recorded, handed to the PSP) -> `paid` | `failed`; `pending` -> `cancelled` (the merchant, while
 * still pending) or `failed` (the test helper, a send refused before processing); `pending` ->
 * `paid` (the test helper). Each status names what it does to the money, its timestamp column,
 * its events of both families and its legacy status, so one function (transitions.ts) applies
 * every move the same way.
 */
import type { CanonicalType, LegacyType } from "../events/emit";
import type { PayoutRow } from "../../store/rows";

export const PAYOUT_STATUSES = ["pending", "processing", "paid", "failed", "cancelled"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** What a status means: allowed next statuses, the column stamped on arrival, money back or not, events. */
interface StatusRule {
  next: readonly PayoutStatus[];
  /** Column set to the time of arrival (epoch ms), if any. */
  stamp: keyof Pick<PayoutRow, "processingAt" | "paidAt" | "failedAt" | "cancelledAt"> | null;
  /** true: `amount + fee` return to `available` (the ledger reversal). */
  restores: boolean;
  /** Canonical event on arrival (interface.md "Emission rules": settled / failed or rejected). */
  canonical: CanonicalType | null;
  /** Legacy event on arrival, besides `withdrawal.status_changed` (sent on every change). */
  legacy: LegacyType | null;
  /** The legacy envelope's `status`. */
  legacyStatus: "PENDING" | "PROCESSING" | "COMPLETED" | "FAILED" | "CANCELLED";
}

export const PAYOUT_RULES: Record<PayoutStatus, StatusRule> = {
  pending: {
    next: ["processing", "paid", "failed", "cancelled"],
    stamp: null,
    restores: false,
    canonical: "payout.created",
    legacy: "withdrawal.created",
    legacyStatus: "PENDING",
  },
  processing: {
    next: ["paid", "failed"],
    stamp: "processingAt",
    restores: false,
    canonical: null,
    legacy: null,
    legacyStatus: "PROCESSING",
  },
  paid: {
    next: [],
    stamp: "paidAt",
    restores: false,
    canonical: "payout.paid",
    legacy: "withdrawal.completed",
    legacyStatus: "COMPLETED",
  },
  failed: {
    next: [],
    stamp: "failedAt",
    restores: true,
    canonical: "payout.failed",
    legacy: "withdrawal.failed",
    legacyStatus: "FAILED",
  },
  cancelled: {
    next: [],
    stamp: "cancelledAt",
    restores: true,
    canonical: "payout.failed",
    legacy: "withdrawal.failed",
    legacyStatus: "CANCELLED",
  },
};

/** True when a payout may move from `from` to `to`. */
export function canMove(from: PayoutStatus, to: PayoutStatus): boolean {
  return PAYOUT_RULES[from].next.includes(to);
}

/** Final payout statuses (no further change). */
export function isFinal(s: PayoutStatus): boolean {
  return PAYOUT_RULES[s].next.length === 0;
}

/** Job kind that drives a payout with its provider (jobs.ts); dedupe key `payout.advance:<id>`. */
export const PAYOUT_ADVANCE_JOB = "payout.advance";

/** The dedupe key of payout `id`'s job. */
export function advanceKey(id: string): string {
  return `${PAYOUT_ADVANCE_JOB}:${id}`;
}

/** The id prefix of payouts; the PSP's send id (Efí's `idEnvio`) is the id without it. */
export const PAYOUT_PREFIX = "po_";
