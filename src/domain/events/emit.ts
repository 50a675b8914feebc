/**
 * Emitting events (interface.md "Events"): the envelope is built and stored in the `events`
 * outbox inside the caller's business transaction, then fanned out to deliveries by
 * `fanOut` (src/domain/webhooks), all in the caller's unit of work `uow`. Nothing here does I/O
 * outside the store.
 *
 * Canonical events (`charge.*`, `payout.*`) are always stored: the events API serves them for
 * 30 days whether or not an endpoint subscribes (extensions.md "Events API and `cofre listen`";
 * `pruneEvents` in ./service.ts drops them after). A legacy or MED event with no delivery target at
 * that moment (no subscribed active endpoint, no per-transaction `webhookUrl`) is not stored and
 * its envelope is never built: an endpoint registered later never receives earlier events. It
 * still gets its `evt_` id (callers count them). Measured: two unstored events per charge
 * creation saved ~15% of its cost; storing the canonical one again: docs/performance.md.
 */
import type { Deps } from "../deps";
import { API_VERSION } from "../../lib/api-version";
import { iso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { Uow } from "../../store/port";
import { deliveryTargets, fanOut } from "../webhooks/fanout";
import type { CanonicalType, EventScope, LegacyData, LegacyType, MedType, StoredEvent } from "./model";

export type { CanonicalType, EventScope, LegacyData, LegacyType, MedType, StoredEvent } from "./model";

/** `api_version` of canonical envelopes: the date of the current contract (src/lib/api-version.ts). */
export { API_VERSION };

/**
 * Canonical `charge.*` / `payout.*` event: `{id, object: "event", api_version, type, created_at,
 * data: {object, ...more}}` where `object` is the public resource exactly as the REST API returns
 * it, or a function that builds it (called only when the event is stored). `more` adds sibling
 * objects to `data` (e.g. `refund` of `charge.refunded`, extensions.md "Provider events for
 * refunds"). Returns the `evt_` id.
 */
export function emitCanonical(
  deps: Deps,
  uow: Uow,
  scope: EventScope,
  type: CanonicalType,
  object: unknown | (() => unknown),
  more?: Record<string, unknown>,
): Promise<string> {
  return storeInUnit(deps, uow, scope, type, "canonical", (id, now) => ({
    id,
    object: "event",
    api_version: API_VERSION,
    type,
    created_at: iso(now),
    data: { object: typeof object === "function" ? (object as () => unknown)() : object, ...more },
  }));
}

/** MED family event, canonical envelope shape with the med_case (or resolution) object. */
export function emitMed(deps: Deps, uow: Uow, scope: EventScope, type: MedType, object: unknown): Promise<string> {
  return storeInUnit(deps, uow, scope, type, "med", (id, now) => ({
    id,
    object: "event",
    api_version: API_VERSION,
    type,
    created_at: iso(now),
    data: { object },
  }));
}

/** Legacy `payment.*` / `withdrawal.*` event: `{event, data}`. Returns the `evt_` id. */
export function emitLegacy(
  deps: Deps,
  uow: Uow,
  scope: EventScope,
  type: LegacyType,
  data: LegacyData,
): Promise<string> {
  return storeInUnit(deps, uow, scope, type, "legacy", () => ({ event: type, data }));
}

/** Builds the envelope (`build(id, now)`) and the outbox row of an event that has targets. */
export type BuildEnvelope = (id: string, now: number) => unknown;

/** The outbox row of event `id` of `scope`, its envelope built now. */
export function eventRow(
  deps: Deps,
  id: string,
  scope: EventScope,
  type: string,
  family: StoredEvent["family"],
  build: BuildEnvelope,
): StoredEvent {
  const now = deps.clock.nowMs();
  return {
    id,
    accountId: scope.accountId,
    livemode: scope.livemode,
    type,
    family,
    body: JSON.stringify(build(id, now)),
    transactionId: scope.transactionId ?? null,
    createdAt: now,
  };
}

async function storeInUnit(
  deps: Deps,
  uow: Uow,
  scope: EventScope,
  type: string,
  family: StoredEvent["family"],
  build: BuildEnvelope,
): Promise<string> {
  const id = newId("event");
  const transactionId = scope.transactionId ?? null;
  const targets = await deliveryTargets(uow, {
    accountId: scope.accountId,
    livemode: scope.livemode,
    type,
    family,
    transactionId,
    webhookUrl: scope.webhookUrl,
  });
  if (targets.length === 0 && family !== "canonical") return id; // nobody to tell: no outbox row (module doc)
  const row = eventRow(deps, id, scope, type, family, build);
  await uow.events.append(row);
  if (targets.length > 0) await fanOut(deps, uow, row, targets);
  // A canonical event is a charge or payout transition (cofre_*_transitions_total), counted once committed.
  if (family === "canonical" && deps.metrics.enabled) uow.afterCommit(() => deps.metrics.event(type));
  return id;
}
