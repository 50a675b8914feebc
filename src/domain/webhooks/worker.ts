/**
 * The delivery worker: the `webhook.deliver` job handler. One job per delivery lives until the
 * delivery ends; each run is one attempt: a short unit of work claims it (PROCESSING, attempt
 * row `sending`, signed with the destination's CURRENT secret), the POST happens outside any
 * unit, and a second short unit records the outcome and either ends the
 * delivery (DELIVERED, FAILED = dead letter, CANCELLED) or returns the next attempt time,
 * which the scheduler turns into the job's new due time (no polling lag).
 */
import type { Deps } from "../deps";
import type { JobOutcome, JobRow } from "../jobs";
import { rawId } from "../../lib/ids";
import type { Uow } from "../../store/port";
import type { WebhookDeliveryRow } from "../../store/rows";
import { dispatch } from "./dispatch";
import { DELIVER_JOB, ensureTransactionSecret } from "./fanout";
import { nextDelayMs, outcomeBody, outcomeError, outcomeStatusCode, type DispatchOutcome } from "./model";
import { deliveryHeaders } from "./signing";

/** Registers the delivery job (lease 90 s > 30 s timeout). Its maxAttempts only counts handler crashes. */
export function registerWebhookJobs(deps: Deps): void {
  deps.jobs.register(
    DELIVER_JOB,
    (job) => {
      const p = job.payload as { deliveryId: string; manual?: boolean };
      return runDelivery(deps, p.deliveryId, p.manual === true, job);
    },
    { leaseSeconds: 90, maxAttempts: 1000, backoff: (n) => Math.min(5 * 2 ** n, 600) },
  );
}

interface Plan {
  delivery: WebhookDeliveryRow;
  attempt: number;
  attemptId: string;
  url: string;
  secret: string;
  body: string;
  timestamp: number;
}

/**
 * Runs one attempt of `deliveryId` (if it is still due for one). Run as `job`, the attempt's
 * outcome and the job's next due time commit in one unit (JobRow.finish).
 */
export async function runDelivery(
  deps: Deps,
  deliveryId: string,
  manual = false,
  job?: Pick<JobRow, "finish">,
): Promise<JobOutcome> {
  const rt = deps.delivery;
  const peek = await deps.store.read.webhooks.peekDelivery(deliveryId);
  if (!peek || (peek.status !== "PENDING" && peek.status !== "PROCESSING")) return;
  const key = peek.endpointId ?? `url:${peek.targetUrl}`;
  if (!(await rt.slots.acquire(key))) return { retryAt: deps.clock.nowMs() + rt.busyRetryMs };
  try {
    const plan = await deps.store.tx((uow) => beginAttempt(deps, uow, deliveryId, manual));
    if (!plan) return;
    const d = plan.delivery;
    const outcome = await dispatch(rt, {
      url: plan.url,
      body: plan.body,
      guard: !deps.config.webhookAllowPrivate, // both modes (extensions.md "Webhook targets and private addresses")
      nowMs: deps.clock.nowMs(),
      headers: deliveryHeaders({
        deliveryId: d.id,
        eventType: d.eventType,
        family: d.family,
        body: plan.body,
        secret: plan.secret,
        timestamp: plan.timestamp,
      }),
    });
    const next = await deps.store.tx(async (uow) => {
      const n = await finishAttempt(deps, uow, plan, outcome);
      await job?.finish?.(uow, n === null ? undefined : { retryAt: n });
      return n;
    });
    deps.metrics.webhookAttempt(
      outcome.kind,
      outcome.durationMs,
      outcome.kind === "delivered" ? deps.clock.nowMs() - d.createdAt : null,
    );
    return next === null ? undefined : { retryAt: next };
  } finally {
    rt.slots.release(key);
  }
}

async function end(
  deps: Deps,
  uow: Uow,
  d: WebhookDeliveryRow,
  status: "CANCELLED" | "FAILED",
  lastError: string,
): Promise<null> {
  await uow.webhooks.updateDelivery(d.id, { status, lastError, nextRetryAt: null, updatedAt: deps.clock.nowMs() });
  return null;
}

/** Claims the next attempt in `uow`; null when there is nothing to send (ended, cancelled). */
async function beginAttempt(deps: Deps, uow: Uow, deliveryId: string, manual: boolean): Promise<Plan | null> {
  const row = await uow.webhooks.claimView(deliveryId);
  if (!row) return null;
  const d = row.d;
  if (d.status !== "PENDING" && d.status !== "PROCESSING") return null;
  const now = deps.clock.nowMs();
  if (d.status === "PROCESSING") {
    const why = "interrupted: the worker stopped before the response was recorded";
    await uow.webhooks.failOpenAttempts(d.id, now, why);
    if (d.attempts >= d.maxAttempts) return end(deps, uow, d, "FAILED", why);
  }
  let url: string;
  let secret: string;
  if (d.endpointId) {
    if (row.epStatus === null) return end(deps, uow, d, "CANCELLED", "endpoint deleted");
    if (row.epStatus !== "ACTIVE") return end(deps, uow, d, "CANCELLED", "endpoint inactive");
    url = row.epUrl!;
    secret = row.epSecret!;
  } else {
    url = d.targetUrl!;
    secret = await ensureTransactionSecret(deps, uow, { accountId: d.accountId, livemode: d.livemode });
  }
  if (row.body === null) return end(deps, uow, d, "CANCELLED", "event not found");
  const attempt = d.attempts + 1;
  const attemptId = rawId();
  await uow.webhooks.startAttempt({
    deliveryId: d.id,
    attemptId,
    attempt,
    trigger: manual ? "manual" : "scheduled",
    now,
  });
  // The signed timestamp is transport time, read by the receiver against its own wall clock
  // (5-minute tolerance in Stripe and Standard Webhooks verifiers), so it comes from the real
  // clock: a sandbox whose service clock was advanced must still produce verifiable signatures.
  return { delivery: d, attempt, attemptId, url, secret, body: row.body, timestamp: Math.floor(Date.now() / 1000) };
}

/** Records the outcome in `uow`; returns the next attempt time (epoch ms) or null when the delivery ended. */
async function finishAttempt(deps: Deps, uow: Uow, plan: Plan, o: DispatchOutcome): Promise<number | null> {
  const now = deps.clock.nowMs();
  const delivered = o.kind === "delivered";
  let status: "DELIVERED" | "FAILED" | "PENDING" = "DELIVERED";
  let next: number | null = null;
  if (!delivered) {
    if (plan.attempt >= plan.delivery.maxAttempts) status = "FAILED";
    else {
      status = "PENDING";
      next = now + nextDelayMs(o, plan.attempt, deps.delivery.random);
    }
  }
  const stillProcessing = await uow.webhooks.finishAttempt({
    deliveryId: plan.delivery.id,
    attemptId: plan.attemptId,
    status,
    attemptStatus: delivered ? "succeeded" : "failed",
    outcome: o.kind,
    statusCode: outcomeStatusCode(o),
    error: outcomeError(o),
    responseBody: outcomeBody(o),
    durationMs: o.durationMs,
    nextRetryAt: next,
    deliveredAt: delivered ? now : null,
    now,
  });
  // Not PROCESSING any more (e.g. the endpoint was deleted meanwhile): nothing to schedule.
  return stillProcessing ? next : null;
}
