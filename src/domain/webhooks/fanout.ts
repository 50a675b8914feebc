/**
 * Fan-out of a stored event, inside the business unit of work (transactional outbox): one
 * delivery per subscribed ACTIVE endpoint of the same account and mode, plus one delivery to
 * the transaction's own `webhookUrl` for LEGACY-family events (`payment.*`, `withdrawal.*`)
 * about a transaction that has one, unless an endpoint with that exact URL already gets the
 * event. Per-transaction deliveries are signed with the account's transaction-webhook secret
 * (created here when missing; read it with POST /v1/webhooks/transaction-secret/rotate).
 * Each delivery gets one `webhook.deliver` job, committed with it.
 */
import type { Deps } from "../deps";
import { randomHex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import type { Uow } from "../../store/port";
import type { ActiveEndpoint, WebhookScope } from "../../store/port/webhooks";
import type { NewWebhookDeliveryRow } from "../../store/rows";
import type { EnqueueInput } from "../jobs";
import type { StoredEvent } from "../events/model";
import { MAX_ATTEMPTS } from "./model";

/** Job kind of one delivery's attempts (registered by registerWebhookJobs). */
export const DELIVER_JOB = "webhook.deliver";

/** Dedupe key of a delivery's job: at most one live job per delivery. */
export function deliverJobKey(deliveryId: string): string {
  return `${DELIVER_JOB}:${deliveryId}`;
}

/** Where one event goes: a registered endpoint, or a transaction's own `webhookUrl`. */
export type DeliveryTarget = { endpointId: string; targetUrl: null } | { endpointId: null; targetUrl: string };

/** What fan-out needs to know of an event before it is built. */
export interface FanOutEvent {
  accountId: string;
  livemode: boolean;
  type: string;
  family: StoredEvent["family"];
  transactionId: string | null;
  /** The transaction's `webhookUrl` when the caller has the row (null = none); undefined = look it up. */
  webhookUrl?: string | null;
}

/** True when the targets of `event` depend on its transaction's `webhookUrl` and the caller did not give it. */
export function needsWebhookUrl(event: FanOutEvent): boolean {
  return event.family === "legacy" && event.transactionId !== null && event.webhookUrl === undefined;
}

/**
 * The targets among `endpoints` (the scope's ACTIVE ones) subscribed to `event.type`, plus
 * `webhookUrl` for a legacy event about a transaction unless an endpoint with that URL gets it.
 */
export function pickTargets(
  endpoints: ActiveEndpoint[],
  event: FanOutEvent,
  webhookUrl: string | null,
): DeliveryTarget[] {
  const targets: DeliveryTarget[] = [];
  const urls = new Set<string>();
  for (const ep of endpoints) {
    if (!(JSON.parse(ep.events) as string[]).includes(event.type)) continue;
    urls.add(ep.url);
    targets.push({ endpointId: ep.id, targetUrl: null });
  }
  if (event.family === "legacy" && event.transactionId && webhookUrl && !urls.has(webhookUrl))
    targets.push({ endpointId: null, targetUrl: webhookUrl });
  return targets;
}

/**
 * The delivery targets of an event, read in `uow`: every subscribed ACTIVE endpoint of the
 * account and mode, plus the transaction's own `webhookUrl` for legacy events unless an endpoint
 * with that URL already gets it. Empty when nobody is to be told.
 */
export async function deliveryTargets(uow: Uow, event: FanOutEvent): Promise<DeliveryTarget[]> {
  const endpoints = await uow.webhooks.activeEndpoints(event.accountId, event.livemode);
  let url = event.webhookUrl ?? null;
  if (needsWebhookUrl(event))
    url = (await uow.charges.byScopedId(event.accountId, event.livemode, event.transactionId!))?.webhookUrl ?? null;
  return pickTargets(endpoints, event, url);
}

/** The delivery rows (PENDING, no attempt yet) of the stored `event` for `targets`, created at `now` (epoch ms). */
export function deliveryRows(event: StoredEvent, targets: DeliveryTarget[], now: number): NewWebhookDeliveryRow[] {
  return targets.map((t) => ({
    id: newId("webhookDelivery"),
    accountId: event.accountId,
    livemode: event.livemode,
    endpointId: t.endpointId,
    targetUrl: t.targetUrl,
    eventId: event.id,
    eventType: event.type,
    family: event.family,
    status: "PENDING",
    attempts: 0,
    maxAttempts: MAX_ATTEMPTS,
    createdAt: now,
    updatedAt: now,
  }));
}

/** The `webhook.deliver` job of delivery `id`, due at `now`. */
export function deliverJob(id: string, now: number): EnqueueInput {
  return { kind: DELIVER_JOB, payload: { deliveryId: id }, dueAt: now, dedupeKey: deliverJobKey(id) };
}

/** Creates the delivery rows (and their jobs) of the stored `event` for `targets` (from `deliveryTargets`), in `uow`. */
export async function fanOut(deps: Deps, uow: Uow, event: StoredEvent, targets: DeliveryTarget[]): Promise<void> {
  if (targets.some((t) => t.targetUrl !== null))
    await ensureTransactionSecret(deps, uow, { accountId: event.accountId, livemode: event.livemode });
  const now = deps.clock.nowMs();
  const rows = deliveryRows(event, targets, now);
  await uow.webhooks.insertDeliveries(rows);
  await deps.jobs.enqueueMany(
    uow,
    rows.map((r) => deliverJob(r.id, now)),
  );
}

/** The scope's transaction-webhook secret, created (64 hex) in `uow` when missing. */
export async function ensureTransactionSecret(deps: Deps, uow: Uow, scope: WebhookScope): Promise<string> {
  const existing = await uow.webhooks.transactionSecret(scope);
  if (existing) return existing;
  // First writer wins: two first uses at once (two instances on PostgreSQL) sign with one secret.
  return uow.webhooks.keepTransactionSecret(scope, randomHex(32), deps.clock.nowMs());
}
