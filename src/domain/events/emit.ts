/**
 * Emitting events (interface.md "Events"): the envelope is built and stored in the `events`
 * outbox inside the caller's business transaction, then fanned out to deliveries by
 * `fanOut` (src/domain/webhooks). Nothing here does I/O outside the transaction.
 */
import type { Tx } from "../../db/client";
import type { Deps } from "../../deps";
import { iso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import { fanOut } from "../webhooks/fanout";
import { hot } from "../webhooks/hot";

/** `api_version` of canonical envelopes: the date of the current contract. */
export const API_VERSION = "2026-10-12";

export type CanonicalType =
  | "charge.created"
  | "charge.paid"
  | "charge.failed"
  | "charge.expired"
  | "payout.created"
  | "payout.paid"
  | "payout.failed";

export type LegacyType =
  | "payment.created"
  | "payment.completed"
  | "payment.failed"
  | "payment.expired"
  | "payment.refunded"
  | "payment.status_changed"
  | "withdrawal.completed"
  | "withdrawal.status_changed";

export type MedType = "med_case.created" | "med_case.updated" | "med.resolved";

/** `data` of the legacy envelope `{event, data}` (interface.md "Legacy envelope"). */
export interface LegacyData {
  transactionId: string;
  amount: number;
  status: string;
  previousStatus: string;
  paidWith?: string | null;
  platformFee?: number | null;
  occurredAt: string;
  [extra: string]: unknown;
}

export interface EventScope {
  accountId: string;
  livemode: boolean;
  /** Raw id of the transaction/charge (enables the per-transaction `webhookUrl`). */
  transactionId?: string | null;
}

export interface StoredEvent {
  id: string;
  accountId: string;
  livemode: boolean;
  type: string;
  family: "canonical" | "legacy" | "med";
  body: string;
  transactionId: string | null;
  createdAt: number;
}

/**
 * Canonical `charge.*` / `payout.*` event: `{id, object: "event", api_version, type, created_at,
 * data: {object}}` where `object` is the public resource exactly as the REST API returns it.
 * Returns the `evt_` id.
 */
export function emitCanonical(deps: Deps, t: Tx, scope: EventScope, type: CanonicalType, object: unknown): string {
  return store(deps, t, scope, type, "canonical", (id, now) => ({
    id,
    object: "event",
    api_version: API_VERSION,
    type,
    created_at: iso(now),
    data: { object },
  }));
}

/** MED family event, canonical envelope shape with the med_case (or resolution) object. */
export function emitMed(deps: Deps, t: Tx, scope: EventScope, type: MedType, object: unknown): string {
  return store(deps, t, scope, type, "med", (id, now) => ({
    id,
    object: "event",
    api_version: API_VERSION,
    type,
    created_at: iso(now),
    data: { object },
  }));
}

/** Legacy `payment.*` / `withdrawal.*` event: `{event, data}`. Returns the `evt_` id. */
export function emitLegacy(deps: Deps, t: Tx, scope: EventScope, type: LegacyType, data: LegacyData): string {
  return store(deps, t, scope, type, "legacy", () => ({ event: type, data }));
}

function store(
  deps: Deps,
  t: Tx,
  scope: EventScope,
  type: string,
  family: StoredEvent["family"],
  build: (id: string, now: number) => unknown,
): string {
  const id = newId("event");
  const now = deps.clock.nowMs();
  const row: StoredEvent = {
    id,
    accountId: scope.accountId,
    livemode: scope.livemode,
    type,
    family,
    body: JSON.stringify(build(id, now)),
    transactionId: scope.transactionId ?? null,
    createdAt: now,
  };
  // Prepared statement on the same connection: it runs inside the caller's transaction `t`.
  hot(deps.db).insertEvent.run({ ...row });
  fanOut(deps, t, row);
  return id;
}
