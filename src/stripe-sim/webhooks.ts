/**
 * stripe-sim events and their delivery. `emit` stores the event (listed by `/v1/events` whether or
 * not it is delivered) and, unless `/_sim/events/drop` is counting down, one delivery per endpoint
 * of the account whose `enabled_events` has the type or `*`, first attempt after
 * `event_delay_ms`. An attempt POSTs the stored JSON with `Stripe-Signature: t=<unix>,v1=<hex
 * HMAC-SHA256 of "t.payload" with the endpoint's whsec>` (what `stripe.webhooks.constructEvent`
 * verifies); a 2xx answer within the timeout delivers it, anything else is retried after
 * `retrySchedule[n]` ms until the schedule is used up (then `failed`), like Stripe's backoff.
 */
import { createHmac } from "node:crypto";
import type Stripe from "stripe";
import { type SimEnv, nowSec, saveSettings, settings } from "./core";
import { event, type SimEventObjects, type SimEventType } from "./event-objects";

/** `Stripe-Signature` header value for `payload` signed with `secret` at `t` (Unix seconds). */
export function signatureHeader(payload: string, secret: string, t: number): string {
  const v1 = createHmac("sha256", secret).update(`${t}.${payload}`, "utf8").digest("hex");
  return `t=${t},v1=${v1}`;
}

function endpointWants(ep: Stripe.WebhookEndpoint, type: string): boolean {
  return ep.status === "enabled" && (ep.enabled_events.includes("*") || ep.enabled_events.includes(type));
}

/** Stores an event of `account` and schedules its deliveries; returns the event. */
export function emit<T extends SimEventType>(
  env: SimEnv,
  account: string,
  type: T,
  object: SimEventObjects[T],
  request: { id: string | null; idempotency_key: string | null } | null = null,
): Stripe.Event {
  const endpoints = env.store
    .list(account, "webhook_endpoint")
    .map((r) => JSON.parse(r.doc) as Stripe.WebhookEndpoint)
    .filter((ep) => endpointWants(ep, type));
  const s = settings(env);
  const dropped = s.drop_remaining > 0;
  if (dropped) saveSettings(env, { drop_remaining: s.drop_remaining - 1 });
  const ev = event({
    type,
    object,
    created: nowSec(env),
    account,
    pending_webhooks: dropped ? 0 : endpoints.length,
    request,
  });
  const doc = JSON.stringify(ev);
  env.store.tx(() => {
    env.store.addEvent({ id: ev.id, account, type, created: ev.created, doc, dropped: dropped ? 1 : 0 });
    if (!dropped)
      for (const ep of endpoints) {
        const d = env.store.addDelivery(ev.id, ep.id, ep.url, Date.now() + s.event_delay_ms);
        env.scheduler.schedule("deliver", String(d), s.event_delay_ms);
      }
  });
  return ev;
}

/** One delivery attempt (the `deliver` job); schedules the retry when it fails. */
export async function attemptDelivery(env: SimEnv, deliveryId: number): Promise<void> {
  const d = env.store.delivery(deliveryId);
  if (d?.status !== "pending") return;
  const ev = env.store.event(d.event_id);
  const secret = env.store.endpointSecret(d.endpoint_id);
  const at = Date.now();
  if (!ev || !secret || !env.store.row(d.endpoint_id)) {
    env.store.recordAttempt(d, at, null, "endpoint deleted", "failed", null);
    return;
  }
  let httpStatus: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(d.url, {
      method: "POST",
      headers: {
        "content-type": "application/json; charset=utf-8",
        "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        "stripe-signature": signatureHeader(ev.doc, secret, nowSec(env)),
      },
      body: ev.doc,
      redirect: "manual",
      signal: AbortSignal.timeout(env.deliveryTimeoutMs),
    });
    httpStatus = res.status;
    await res.arrayBuffer().catch(() => undefined);
    if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
  } catch (err) {
    error = (err as Error).message || String(err);
  }
  if (error === null) {
    env.store.recordAttempt(d, at, httpStatus, null, "succeeded", null);
    return;
  }
  const wait = env.retrySchedule[d.attempts];
  if (wait === undefined) {
    env.store.recordAttempt(d, at, httpStatus, error, "failed", null);
    return;
  }
  env.store.recordAttempt(d, at, httpStatus, error, "pending", Date.now() + wait);
  env.scheduler.schedule("deliver", String(d.id), wait);
}

/** The simulator's view of every event and its deliveries (`GET /_sim/events`). */
export function eventsReport(env: SimEnv, account?: string) {
  return env.store
    .allEvents()
    .filter((e) => account === undefined || e.account === account)
    .map((e) => ({
      id: e.id,
      type: e.type,
      account: e.account,
      created: e.created,
      dropped: e.dropped === 1,
      object: ((JSON.parse(e.doc) as Stripe.Event).data.object as { id?: string }).id ?? null,
      deliveries: env.store.deliveriesOf(e.id).map((d) => ({
        endpoint: d.endpoint_id,
        url: d.url,
        status: d.status,
        attempts: env.store
          .attemptsOf(d.id)
          .map((a) => ({ at_ms: a.at_ms, http_status: a.http_status, error: a.error })),
      })),
    }));
}
