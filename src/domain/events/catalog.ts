/**
 * The event catalog (interface.md "Events: two event families"): every subscribable event
 * name with a description; `legacy: true` marks the deprecated `payment.*` / `withdrawal.*`
 * family; `charge.refunded` is pinned in extensions.md "Provider events for refunds". Served by
 * GET /v1/webhooks/event-catalog and used to validate subscriptions.
 */
import type { CanonicalType, LegacyType, MedType } from "./model";

export interface CatalogEntry {
  event: string;
  description: string;
  legacy?: true;
}

const CANONICAL: Record<CanonicalType, string> = {
  "charge.created": "A charge was created (pending, Pix block and checkout link issued).",
  "charge.paid": "A charge was paid and the payment settled.",
  "charge.failed": "A charge failed or was cancelled before completion.",
  "charge.expired": "A charge expired without payment.",
  "charge.refunded":
    "A refund of a charge was confirmed (partial or full); data.object is the charge as it stands, data.refund the refund.",
  "payout.created": "A payout was requested.",
  "payout.paid": "A payout was settled.",
  "payout.failed": "A payout failed, was rejected or was cancelled.",
};

const LEGACY: Record<LegacyType, string> = {
  "payment.created": "Legacy: a transaction was created.",
  "payment.completed": "Legacy: a transaction reached PAID or APPROVED (twin of charge.paid).",
  "payment.failed": "Legacy: a transaction reached REFUSED, CANCELLED, EXPIRED, CHARGEBACK or DISPUTE.",
  "payment.expired": "Legacy: a transaction expired without payment.",
  "payment.refunded": "Legacy: a refund was confirmed.",
  "payment.status_changed": "Legacy alias: the status of a transaction changed.",
  "withdrawal.created": "Legacy: a withdrawal (payout) was requested.",
  "withdrawal.completed": "Legacy: a withdrawal (payout) completed.",
  "withdrawal.failed": "Legacy: a withdrawal (payout) failed, was rejected or was cancelled.",
  "withdrawal.status_changed": "Legacy alias: the status of a withdrawal changed.",
};

const MED: Record<MedType, string> = {
  "med_case.created": "A MED (Pix chargeback) case was opened against a paid charge; full med_case object.",
  "med_case.updated": "A MED case changed status or the platform asked for evidence; full med_case object.",
  "med.resolved": "The final destination of the money of a MED case was decided.",
};

/** Catalog entries: canonical, then legacy (`legacy: true`), then MED. */
export const EVENT_CATALOG: readonly CatalogEntry[] = [
  ...Object.entries(CANONICAL).map(([event, description]) => ({ event, description })),
  ...Object.entries(LEGACY).map(([event, description]) => ({ event, description, legacy: true as const })),
  ...Object.entries(MED).map(([event, description]) => ({ event, description })),
];

const NAMES = new Set(EVENT_CATALOG.map((e) => e.event));

/** True when `name` is a subscribable event name. */
export function isKnownEventType(name: string): boolean {
  return NAMES.has(name);
}
