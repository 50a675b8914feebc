/**
 * Use cases of /v1/webhooks: endpoint registration, listing, update, deletion (pending
 * deliveries CANCELLED), secret rotation; delivery listing, stats and manual re-send; the
 * transaction-webhook secret. Every call is scoped by account AND mode. Throws DomainError:
 * 404 `not_found`, 400 `invalid_url`, `invalid_event_type`, `invalid_state`.
 */
import { DomainError, invalidParam, notFound } from "../errors";
import type { Deps } from "../deps";
import { randomHex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import type { DeliveryFilters, WebhookScope as Scope } from "../../store/port/webhooks";
import type { WebhookEndpointRow } from "../../store/rows";
import { isKnownEventType } from "../events/catalog";
import { DELIVER_JOB, deliverJobKey } from "./fanout";
import type { DeliveryStatus, EndpointStatus } from "./model";
import { checkWebhookUrl } from "./url-rules";
import { attemptView, deliveryView, endpointView, endpointWithSecretView, statsView } from "./views";

/** A new signing secret: 64 lowercase hex characters (32 random bytes). */
export function newSecret(): string {
  return randomHex(32);
}

/** Validates subscribed names against the catalog; returns them without duplicates. */
function checkEvents(events: string[]): string[] {
  if (events.length === 0) throw invalidParam("events", "Subscribe to at least one event.", "invalid_event_type");
  for (const [i, name] of events.entries()) {
    if (!isKnownEventType(name))
      throw invalidParam(
        `events.${i}`,
        `Unknown event name "${name.slice(0, 100)}"; see GET /v1/webhooks/event-catalog.`,
        "invalid_event_type",
      );
  }
  return [...new Set(events)];
}

async function mustFindEndpoint(deps: Deps, s: Scope, id: string): Promise<WebhookEndpointRow> {
  const ep = await deps.store.read.webhooks.findEndpoint(s, id);
  if (!ep) throw notFound("webhook endpoint");
  return ep;
}

/** POST /v1/webhooks/endpoints: 201 view with the secret (shown once). */
export async function createEndpoint(deps: Deps, s: Scope, input: { url: string; events: string[] }) {
  const url = checkWebhookUrl(input.url, s.livemode, deps.config.webhookAllowPrivate);
  const events = checkEvents(input.events);
  const now = deps.clock.nowMs();
  const row: WebhookEndpointRow = {
    id: newId("webhookEndpoint"),
    accountId: s.accountId,
    livemode: s.livemode,
    url,
    events: JSON.stringify(events),
    status: "ACTIVE",
    secret: newSecret(),
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.tx((uow) => uow.webhooks.insertEndpoint(row));
  return endpointWithSecretView(row);
}

/** GET /v1/webhooks/endpoints: `{data}` newest first, no secrets. */
export async function listEndpoints(deps: Deps, s: Scope) {
  return { data: (await deps.store.read.webhooks.listEndpoints(s)).map(endpointView) };
}

/** PATCH: changes only the fields sent. */
export async function updateEndpoint(
  deps: Deps,
  s: Scope,
  id: string,
  patch: { url?: string; events?: string[]; status?: EndpointStatus },
) {
  const ep = await mustFindEndpoint(deps, s, id);
  const set: Partial<WebhookEndpointRow> = {};
  if (patch.url !== undefined) set.url = checkWebhookUrl(patch.url, s.livemode, deps.config.webhookAllowPrivate);
  if (patch.events !== undefined) set.events = JSON.stringify(checkEvents(patch.events));
  if (patch.status !== undefined) set.status = patch.status;
  if (Object.keys(set).length === 0) return endpointView(ep);
  set.updatedAt = deps.clock.nowMs();
  await deps.store.tx((uow) => uow.webhooks.updateEndpoint(id, set));
  return endpointView({ ...ep, ...set });
}

/** DELETE: removes the endpoint; its PENDING deliveries become CANCELLED and are never sent. */
export async function deleteEndpoint(deps: Deps, s: Scope, id: string) {
  await mustFindEndpoint(deps, s, id);
  await deps.store.tx(async (uow) => {
    const now = deps.clock.nowMs();
    const pending = await uow.webhooks.deliveryIdsOfEndpoint(id, ["PENDING"]);
    await uow.webhooks.updateDeliveries(pending, {
      status: "CANCELLED",
      lastError: "endpoint deleted",
      nextRetryAt: null,
      updatedAt: now,
    });
    await uow.jobs.cancelMany(pending.map(deliverJobKey));
    await uow.webhooks.deleteEndpoint(id);
  });
  return { deleted: true as const };
}

/** POST .../rotate-secret: instant swap; the next attempt of every delivery uses the new secret. */
export async function rotateEndpointSecret(deps: Deps, s: Scope, id: string) {
  await mustFindEndpoint(deps, s, id);
  const secret = newSecret();
  await deps.store.tx((uow) => uow.webhooks.updateEndpoint(id, { secret, updatedAt: deps.clock.nowMs() }));
  return { id, secret };
}

/** GET /v1/webhooks/deliveries: newest first, `{data, total, limit, offset}`. */
export async function listDeliveries(deps: Deps, s: Scope, f: DeliveryFilters, limit: number, offset: number) {
  const { rows, total } = await deps.store.read.webhooks.pageDeliveries(s, f, limit, offset);
  return { data: rows.map((r) => deliveryView(r.d, r.body)), total, limit, offset };
}

/** GET /v1/webhooks/stats. */
export async function deliveryStats(deps: Deps, s: Scope) {
  return statsView(await deps.store.read.webhooks.countByStatus(s));
}

const RESENDABLE: DeliveryStatus[] = ["FAILED", "CANCELLED"];

/**
 * POST /v1/webhooks/deliveries/{id}/retry: re-sends a FAILED (dead-lettered) or CANCELLED
 * delivery at once as ONE extra attempt (`maxAttempts` grows by one; on failure it is FAILED
 * again). Its destination must still exist and be ACTIVE. Else 400 `invalid_state`.
 */
/**
 * The attempts of delivery `id`, oldest first: `{data: [{attempt, status_code, error,
 * response_body, duration_ms, attempted_at}]}`. 404 `not_found` unless the delivery belongs to
 * the caller's account and mode.
 */
export async function deliveryAttempts(deps: Deps, s: Scope, id: string) {
  const d = await deps.store.read.webhooks.deliveryById(id);
  if (!d || d.accountId !== s.accountId || d.livemode !== s.livemode) throw notFound("webhook delivery");
  return { data: (await deps.store.read.webhooks.attemptsOf(id)).map(attemptView) };
}

export async function retryDelivery(deps: Deps, s: Scope, id: string) {
  const d = await deps.store.read.webhooks.deliveryById(id);
  if (!d || d.accountId !== s.accountId || d.livemode !== s.livemode) throw notFound("webhook delivery");
  if (!RESENDABLE.includes(d.status as DeliveryStatus))
    throw new DomainError(
      "invalid_state",
      `Only FAILED or CANCELLED deliveries can be re-sent; this one is ${d.status}.`,
    );
  if (d.endpointId) {
    const ep = await deps.store.read.webhooks.endpointById(d.endpointId);
    if (!ep) throw new DomainError("invalid_state", "The delivery's endpoint was deleted.");
    if (ep.status !== "ACTIVE")
      throw new DomainError("invalid_state", "The delivery's endpoint is INACTIVE; activate it first.");
  }
  const now = deps.clock.nowMs();
  const set = { status: "PENDING", maxAttempts: d.attempts + 1, nextRetryAt: now, updatedAt: now };
  const body = await deps.store.tx(async (uow) => {
    await uow.webhooks.updateDelivery(id, set);
    await deps.jobs.cancel(uow, deliverJobKey(id));
    await deps.jobs.enqueue(uow, {
      kind: DELIVER_JOB,
      payload: { deliveryId: id, manual: true },
      dueAt: now,
      dedupeKey: deliverJobKey(id),
    });
    return uow.events.bodyOf(d.eventId);
  });
  return deliveryView({ ...d, ...set }, body ?? "null");
}

/**
 * POST /v1/webhooks/transaction-secret/rotate: issues (or replaces) the secret that signs
 * deliveries to per-transaction `webhookUrl`s of this account and mode; shown once.
 */
export async function rotateTransactionSecret(deps: Deps, s: Scope) {
  const secret = newSecret();
  await deps.store.tx((uow) => uow.webhooks.putTransactionSecret(s, secret, deps.clock.nowMs()));
  return { secret };
}

/**
 * Validates a transaction's `webhookUrl` (payments group) with the same rules as endpoint URLs
 * for the caller's mode. Throws 400 `invalid_url` with param `webhookUrl`.
 */
export function checkTransactionWebhookUrl(deps: Deps, url: string, livemode: boolean): string {
  return checkWebhookUrl(url, livemode, deps.config.webhookAllowPrivate, "webhookUrl");
}
