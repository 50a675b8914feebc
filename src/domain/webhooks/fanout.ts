/**
 * Fan-out of a stored event, inside the business transaction (transactional outbox): one
 * delivery per subscribed ACTIVE endpoint of the same account and mode, plus one delivery to
 * the transaction's own `webhookUrl` for LEGACY-family events (`payment.*`, `withdrawal.*`)
 * about a transaction that has one, unless an endpoint with that exact URL already gets the
 * event. Per-transaction deliveries are signed with the account's transaction-webhook secret
 * (created here when missing; read it with POST /v1/webhooks/transaction-secret/rotate).
 * Each delivery gets one `webhook.deliver` job, committed with it.
 */
import type { Tx } from "../../db/client";
import type { Deps } from "../../deps";
import { randomHex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { findScoped } from "../charges/repo";
import type { StoredEvent } from "../events/emit";
import { MAX_ATTEMPTS } from "./model";
import { hot } from "./hot";
import { putTransactionSecret, transactionSecret, type Scope } from "./repo";

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

/**
 * The delivery targets of an event (read-only): every subscribed ACTIVE endpoint of the account
 * and mode, plus the transaction's own `webhookUrl` for legacy events unless an endpoint with
 * that URL already gets it. Empty when nobody is to be told.
 */
export function deliveryTargets(deps: Deps, event: FanOutEvent): DeliveryTarget[] {
  const targets: DeliveryTarget[] = [];
  const urls = new Set<string>();
  for (const ep of hot(deps.db).activeEndpoints.all(event.accountId, event.livemode ? 1 : 0)) {
    if (!(JSON.parse(ep.events) as string[]).includes(event.type)) continue;
    urls.add(ep.url);
    targets.push({ endpointId: ep.id, targetUrl: null });
  }
  if (event.family === "legacy" && event.transactionId) {
    const url =
      event.webhookUrl !== undefined ? event.webhookUrl : (findScoped(deps.db, event.accountId, event.livemode, event.transactionId)?.webhookUrl ?? null);
    if (url && !urls.has(url)) targets.push({ endpointId: null, targetUrl: url });
  }
  return targets;
}

/** Creates the delivery rows (and their jobs) of the stored `event` for `targets` (from `deliveryTargets`), with `t`. */
export function fanOut(deps: Deps, t: Tx, event: StoredEvent, targets: DeliveryTarget[]): void {
  for (const target of targets) {
    if (target.targetUrl !== null) ensureTransactionSecret(deps, t, { accountId: event.accountId, livemode: event.livemode });
    createDelivery(deps, t, event, target);
  }
}

/** The scope's transaction-webhook secret, created (64 hex) when missing. */
export function ensureTransactionSecret(deps: Deps, t: Tx, scope: Scope): string {
  const existing = transactionSecret(t, scope);
  if (existing) return existing;
  const secret = randomHex(32);
  putTransactionSecret(t, scope, secret, deps.clock.nowMs());
  return secret;
}

function createDelivery(deps: Deps, t: Tx, event: StoredEvent, dest: DeliveryTarget): void {
  const id = newId("webhookDelivery");
  const now = deps.clock.nowMs();
  hot(deps.db).insertDelivery.run({
    id,
    accountId: event.accountId,
    livemode: event.livemode,
    endpointId: dest.endpointId,
    targetUrl: dest.targetUrl,
    eventId: event.id,
    eventType: event.type,
    family: event.family,
    maxAttempts: MAX_ATTEMPTS,
    now,
  });
  deps.jobs.enqueue(t, { kind: DELIVER_JOB, payload: { deliveryId: id }, dueAt: now, dedupeKey: deliverJobKey(id) });
}
