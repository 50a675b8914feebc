/**
 * stripe-sim control routes under `/_sim` (no key; JSON bodies; for tests and demos):
 *   GET  /_sim/state                                counts of objects, events, deliveries; settings
 *   POST /_sim/accounts                             {email?} one more test account -> 201 {id, secret_key}
 *   POST /_sim/checkout/sessions/{id}/pay           {card?: "4242..." (default), three_d_secure?: "approve"|"fail"}
 *                                                   as the hosted page -> {outcome: "paid"|"declined", session}
 *   POST /_sim/checkout/sessions/{id}/expire        open -> expired -> the session
 *   POST /_sim/payment_intents/{id}/pay             a waiting boleto paid -> the PaymentIntent
 *   POST /_sim/payment_intents/{id}/fail            a waiting boleto expired unpaid -> the PaymentIntent
 *   POST /_sim/payment_intents/{id}/dispute         {reason?: "fraudulent"} dispute its charge -> the dispute
 *   POST /_sim/charges/{id}/dispute                 {reason?} -> the dispute
 *   POST /_sim/disputes/{id}/close                  {outcome: "won"|"lost"} -> the dispute
 *   POST /_sim/refunds/{id}/succeed                 pending -> succeeded -> the refund
 *   POST /_sim/refunds/{id}/fail                    {failure_reason?: "declined"} pending -> failed -> the refund
 *   POST /_sim/settings                             {refund_delay_ms?: ms|null (manual), dispute_delay_ms?: ms|null}
 *   POST /_sim/events/drop                          {count}: the next N events are never delivered
 *   POST /_sim/events/delay                         {ms}: deliveries of new events wait ms (0 resets)
 *   POST /_sim/events/flush                         every waiting delivery attempt runs now -> {ran}
 *   GET  /_sim/events[?account=acct_...]            every event with its deliveries and attempts
 *   POST /_sim/sweep                                expire sessions and fail boletos past expires_at now
 *                                                   -> {expired, boletos_failed}
 * Errors: 404 unknown object, 409 wrong state, 400 bad body, as `{error: {type, message}}`.
 */
import { readCard } from "./cards";
import { attemptCard, expireSession, sessionWithExtra } from "./checkout";
import { sweepDeadlines } from "./sweep";
import { type Reply, type SimEnv, loadAny, saveSettings, settings } from "./core";
import { closeDispute, openDispute } from "./disputes";
import { StripeSimError } from "./errors";
import { secret, simId } from "./ids";
import { failBoleto, payBoleto } from "./payment-intents";
import { piWithExtra } from "./payments";
import { finishRefund } from "./refunds";
import type { StripeSimStore } from "./store";
import { eventsReport } from "./webhooks";

type Body = Record<string, unknown>;
type ControlHandler = (
  env: SimEnv,
  params: Record<string, string>,
  body: Body,
  query: URLSearchParams,
) => Reply | Promise<Reply>;

function fail(status: number, message: string): StripeSimError {
  return new StripeSimError(status, { type: "invalid_request_error", message });
}

function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

/** Creates a test account with a fresh `sk_test_` key. */
export function createAccount(
  store: StripeSimStore,
  nowMs: number,
  email = "merchant@example.com",
): { id: string; secret_key: string } {
  const row = { id: simId("acct"), secret_key: secret("sk_test", 40), email, created: Math.floor(nowMs / 1000) };
  store.addAccount(row);
  return { id: row.id, secret_key: row.secret_key };
}

function state(env: SimEnv): Reply {
  const kinds = ["checkout.session", "payment_intent", "charge", "refund", "dispute", "webhook_endpoint"];
  return ok({
    accounts: env.store.accounts().length,
    counts: Object.fromEntries(kinds.map((k) => [k, env.store.countOf(k)])),
    events: env.store.allEvents().length,
    deliveries: env.store.countDeliveries(),
    settings: settings(env),
  });
}

function nonNegInt(v: unknown, name: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw fail(400, `${name} must be a non-negative integer`);
  return v;
}

function delayOrNull(v: unknown, name: string): number | null {
  return v === null ? null : nonNegInt(v, name);
}

function disputeReply(r: ReturnType<typeof openDispute>): Reply {
  if (typeof r === "string") throw fail(r.startsWith("no such") ? 404 : 409, r);
  return ok(r);
}

const ROUTES: [string, string, ControlHandler][] = [
  ["GET", "/_sim/state", (env) => state(env)],
  [
    "POST",
    "/_sim/accounts",
    (env, _p, b) =>
      ok(createAccount(env.store, env.clock.nowMs(), typeof b.email === "string" ? b.email : undefined), 201),
  ],
  [
    "POST",
    "/_sim/checkout/sessions/:id/pay",
    (env, p, b) => {
      const s = sessionWithExtra(env, p.id!);
      if (!s) throw fail(404, `no such checkout.session: ${p.id}`);
      if (s.doc.status !== "open") throw fail(409, `checkout.session ${p.id} is ${s.doc.status}`);
      const number = typeof b.card === "string" ? b.card : "4242424242424242";
      const read = readCard({ number, exp: "12/40", cvc: "123" }, env.clock.nowMs());
      if ("error" in read) throw fail(400, read.error);
      let outcome = attemptCard(env, p.id!, read.card, read.behaviour);
      if (outcome.kind === "3ds") outcome = attemptCard(env, p.id!, read.card, "3ds", b.three_d_secure !== "fail");
      return ok({ outcome: outcome.kind, session: sessionWithExtra(env, p.id!)!.doc });
    },
  ],
  [
    "POST",
    "/_sim/checkout/sessions/:id/expire",
    (env, p) => {
      const s = sessionWithExtra(env, p.id!);
      if (!s) throw fail(404, `no such checkout.session: ${p.id}`);
      if (s.doc.status !== "open") throw fail(409, `checkout.session ${p.id} is ${s.doc.status}`);
      return ok(expireSession(env, s.account, s.doc));
    },
  ],
  [
    "POST",
    "/_sim/payment_intents/:id/pay",
    (env, p) => {
      if (!piWithExtra(env, p.id!)) throw fail(404, `no such payment_intent: ${p.id}`);
      const pi = payBoleto(env, p.id!);
      if (!pi) throw fail(409, `payment_intent ${p.id} is not a boleto waiting for payment`);
      return ok(pi);
    },
  ],
  [
    "POST",
    "/_sim/payment_intents/:id/fail",
    (env, p) => {
      if (!piWithExtra(env, p.id!)) throw fail(404, `no such payment_intent: ${p.id}`);
      const pi = failBoleto(env, p.id!);
      if (!pi) throw fail(409, `payment_intent ${p.id} is not a boleto waiting for payment`);
      return ok(pi);
    },
  ],
  [
    "POST",
    "/_sim/payment_intents/:id/dispute",
    (env, p, b) => {
      const pi = piWithExtra(env, p.id!);
      if (!pi) throw fail(404, `no such payment_intent: ${p.id}`);
      if (!pi.doc.latest_charge || pi.doc.status !== "succeeded")
        throw fail(409, `payment_intent ${p.id} has no successful charge`);
      return disputeReply(openDispute(env, pi.doc.latest_charge, typeof b.reason === "string" ? b.reason : undefined));
    },
  ],
  [
    "POST",
    "/_sim/charges/:id/dispute",
    (env, p, b) => disputeReply(openDispute(env, p.id!, typeof b.reason === "string" ? b.reason : undefined)),
  ],
  [
    "POST",
    "/_sim/disputes/:id/close",
    (env, p, b) => {
      if (b.outcome !== "won" && b.outcome !== "lost") throw fail(400, 'outcome must be "won" or "lost"');
      return disputeReply(closeDispute(env, p.id!, b.outcome));
    },
  ],
  [
    "POST",
    "/_sim/refunds/:id/succeed",
    (env, p) => {
      if (!loadAny(env, "refund", p.id!)) throw fail(404, `no such refund: ${p.id}`);
      const r = finishRefund(env, p.id!, { status: "succeeded" });
      if (!r) throw fail(409, `refund ${p.id} is not pending`);
      return ok(r);
    },
  ],
  [
    "POST",
    "/_sim/refunds/:id/fail",
    (env, p, b) => {
      if (!loadAny(env, "refund", p.id!)) throw fail(404, `no such refund: ${p.id}`);
      const r = finishRefund(env, p.id!, {
        status: "failed",
        failure_reason: typeof b.failure_reason === "string" ? b.failure_reason : "declined",
      });
      if (!r) throw fail(409, `refund ${p.id} is not pending`);
      return ok(r);
    },
  ],
  [
    "POST",
    "/_sim/settings",
    (env, _p, b) => {
      const patch: Parameters<typeof saveSettings>[1] = {};
      for (const k of Object.keys(b)) {
        if (k === "refund_delay_ms") patch.refund_delay_ms = delayOrNull(b[k], k);
        else if (k === "dispute_delay_ms") patch.dispute_delay_ms = delayOrNull(b[k], k);
        else throw fail(400, `unknown setting ${k}`);
      }
      return ok(saveSettings(env, patch));
    },
  ],
  ["POST", "/_sim/events/drop", (env, _p, b) => ok(saveSettings(env, { drop_remaining: nonNegInt(b.count, "count") }))],
  ["POST", "/_sim/events/delay", (env, _p, b) => ok(saveSettings(env, { event_delay_ms: nonNegInt(b.ms, "ms") }))],
  [
    "POST",
    "/_sim/events/flush",
    async (env) => {
      const pending = env.store.pendingDeliveries();
      for (const d of pending) await env.scheduler.runNow("deliver", String(d.id));
      return ok({ ran: pending.length });
    },
  ],
  ["GET", "/_sim/events", (env, _p, _b, q) => ok({ data: eventsReport(env, q.get("account") ?? undefined) })],
  ["POST", "/_sim/sweep", (env) => ok(sweepDeadlines(env))],
];

function match(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split("/");
  const b = path.split("/");
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.startsWith(":")) params[a[i]!.slice(1)] = decodeURIComponent(b[i]!);
    else if (a[i] !== b[i]) return null;
  }
  return params;
}

/** Answers a `/_sim` request; 404 for an unknown control route. */
export async function control(
  env: SimEnv,
  method: string,
  path: string,
  rawBody: string,
  query: URLSearchParams,
): Promise<Reply> {
  for (const [m, pattern, handler] of ROUTES) {
    const params = match(pattern, path);
    if (!params) continue;
    if (m !== method) continue;
    let body: Body = {};
    if (rawBody.trim() !== "") {
      try {
        const parsed = JSON.parse(rawBody) as unknown;
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error();
        body = parsed as Body;
      } catch {
        throw fail(400, "control routes take a JSON object body");
      }
    }
    return handler(env, params, body, query);
  }
  throw fail(404, `no control route ${method} ${path}`);
}
