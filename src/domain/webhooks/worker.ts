/**
 * The delivery worker: the `webhook.deliver` job handler. One job per delivery lives until the
 * delivery ends; each run is one attempt: a short transaction claims it (PROCESSING, attempt
 * row `sending`, signed with the destination's CURRENT secret), the POST happens outside any
 * transaction, and a second short transaction records the outcome and either ends the
 * delivery (DELIVERED, FAILED = dead letter, CANCELLED) or returns the next attempt time,
 * which the scheduler turns into the job's new due time (no polling lag).
 */
import type { Deps } from "../../deps";
import { tx, type Tx } from "../../db/client";
import type { JobOutcome } from "../../jobs/scheduler";
import { rawId } from "../../lib/ids";
import { dispatch } from "./dispatch";
import { DELIVER_JOB, ensureTransactionSecret } from "./fanout";
import { nextDelayMs, outcomeBody, outcomeError, outcomeStatusCode, type DispatchOutcome } from "./model";
import { hot } from "./hot";
import { failOpenAttempts, updateDelivery, type DeliveryRow } from "./repo";
import { acquireSlot, releaseSlot, webhookRuntime } from "./runtime";
import { deliveryHeaders } from "./signing";

/** Registers the delivery job (lease 90 s > 30 s timeout). Its maxAttempts only counts handler crashes. */
export function registerWebhookJobs(deps: Deps): void {
  deps.jobs.register(
    DELIVER_JOB,
    (job) => {
      const p = job.payload as { deliveryId: string; manual?: boolean };
      return runDelivery(deps, p.deliveryId, p.manual === true);
    },
    { leaseSeconds: 90, maxAttempts: 1000, backoff: (n) => Math.min(5 * 2 ** n, 600) },
  );
}

interface Plan {
  delivery: DeliveryRow;
  attempt: number;
  attemptId: string;
  url: string;
  secret: string;
  body: string;
  timestamp: number;
}

/** Runs one attempt of `deliveryId` (if it is still due for one). */
export async function runDelivery(deps: Deps, deliveryId: string, manual = false): Promise<JobOutcome> {
  const rt = webhookRuntime(deps);
  const peek = hot(deps.db).peekDelivery.get({ id: deliveryId });
  if (!peek || (peek.status !== "PENDING" && peek.status !== "PROCESSING")) return;
  const key = peek.endpointId ?? `url:${peek.targetUrl}`;
  if (!(await acquireSlot(rt, key))) return { retryAt: deps.clock.nowMs() + rt.busyRetryMs };
  try {
    const plan = tx(deps.db, (t) => beginAttempt(deps, t, deliveryId, manual));
    if (!plan) return;
    const d = plan.delivery;
    const outcome = await dispatch(rt, {
      url: plan.url,
      body: plan.body,
      guard: !deps.config.webhookAllowPrivate, // both modes (extensions.md "Webhook targets and private addresses")
      nowMs: deps.clock.nowMs(),
      headers: deliveryHeaders({ deliveryId: d.id, eventType: d.eventType, family: d.family, body: plan.body, secret: plan.secret, timestamp: plan.timestamp }),
    });
    const next = tx(deps.db, () => finishAttempt(deps, plan, outcome));
    return next === null ? undefined : { retryAt: next };
  } finally {
    releaseSlot(rt, key);
  }
}

function end(deps: Deps, t: Tx, d: DeliveryRow, status: "CANCELLED" | "FAILED", lastError: string): null {
  updateDelivery(t, d.id, { status, lastError, nextRetryAt: null, updatedAt: deps.clock.nowMs() });
  return null;
}

/** Claims the next attempt; null when there is nothing to send (ended, cancelled). */
function beginAttempt(deps: Deps, t: Tx, deliveryId: string, manual: boolean): Plan | null {
  const q = hot(deps.db);
  const row = q.claimView.get({ id: deliveryId });
  if (!row) return null;
  const d = row.d;
  if (d.status !== "PENDING" && d.status !== "PROCESSING") return null;
  const now = deps.clock.nowMs();
  if (d.status === "PROCESSING") {
    const why = "interrupted: the worker stopped before the response was recorded";
    failOpenAttempts(t, d.id, now, why);
    if (d.attempts >= d.maxAttempts) return end(deps, t, d, "FAILED", why);
  }
  let url: string;
  let secret: string;
  if (d.endpointId) {
    if (row.epStatus === null) return end(deps, t, d, "CANCELLED", "endpoint deleted");
    if (row.epStatus !== "ACTIVE") return end(deps, t, d, "CANCELLED", "endpoint inactive");
    url = row.epUrl!;
    secret = row.epSecret!;
  } else {
    url = d.targetUrl!;
    secret = ensureTransactionSecret(deps, t, { accountId: d.accountId, livemode: d.livemode });
  }
  if (row.body === null) return end(deps, t, d, "CANCELLED", "event not found");
  const attempt = d.attempts + 1;
  const attemptId = rawId();
  q.markProcessing.run({ id: d.id, attempts: attempt, now });
  q.insertAttempt.run({ id: attemptId, deliveryId: d.id, attempt, trigger: manual ? "manual" : "scheduled", now });
  // The signed timestamp is transport time, read by the receiver against its own wall clock
  // (5-minute tolerance in Stripe and Standard Webhooks verifiers), so it comes from the real
  // clock: a sandbox whose service clock was advanced must still produce verifiable signatures.
  return { delivery: d, attempt, attemptId, url, secret, body: row.body, timestamp: Math.floor(Date.now() / 1000) };
}

/** Records the outcome; returns the next attempt time (epoch ms) or null when the delivery ended. */
function finishAttempt(deps: Deps, plan: Plan, o: DispatchOutcome): number | null {
  const q = hot(deps.db);
  const now = deps.clock.nowMs();
  const delivered = o.kind === "delivered";
  const statusCode = outcomeStatusCode(o);
  const error = outcomeError(o);
  const responseBody = outcomeBody(o);
  let status: "DELIVERED" | "FAILED" | "PENDING" = "DELIVERED";
  let next: number | null = null;
  if (!delivered) {
    if (plan.attempt >= plan.delivery.maxAttempts) status = "FAILED";
    else {
      status = "PENDING";
      next = now + nextDelayMs(o, plan.attempt, webhookRuntime(deps).random);
    }
  }
  const updated = q.finishDelivery.all({
    id: plan.delivery.id,
    status,
    lastStatusCode: statusCode,
    lastError: error,
    lastResponseBody: responseBody,
    nextRetryAt: next,
    deliveredAt: delivered ? now : null,
    now,
  });
  // Not PROCESSING any more (e.g. the endpoint was deleted meanwhile): nothing to schedule.
  if (updated.length === 0) next = null;
  q.finishAttempt.run({
    id: plan.attemptId,
    status: delivered ? "succeeded" : "failed",
    outcome: o.kind,
    statusCode,
    error,
    responseBody,
    durationMs: o.durationMs,
    nextAttemptAt: next,
    now,
  });
  return next;
}
