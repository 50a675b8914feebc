/** The daily prune of idempotency records older than the 24 h retention window. */
import type { Deps } from "../../deps";

export const IDEMPOTENCY_PRUNE_JOB = "idempotency.prune";
const EVERY_MS = 3600 * 1000;

/** Registers the hourly prune and makes sure one is queued (dedupe key keeps it single). */
export function registerIdempotencyJobs(deps: Deps): void {
  deps.jobs.register(IDEMPOTENCY_PRUNE_JOB, () => {
    deps.idempotency.prune();
    return { retryAt: deps.clock.nowMs() + EVERY_MS };
  });
  deps.jobs.enqueue(deps.db, { kind: IDEMPOTENCY_PRUNE_JOB, dueAt: deps.clock.nowMs() + EVERY_MS, dedupeKey: IDEMPOTENCY_PRUNE_JOB });
}
