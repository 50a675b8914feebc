/** The daily prune of idempotency records older than the 24 h retention window. */
import type { Deps } from "../deps";

export const IDEMPOTENCY_PRUNE_JOB = "idempotency.prune";
const EVERY_MS = 3600 * 1000;

/** Registers the hourly prune (one recurring job, Scheduler.every). */
export function registerIdempotencyJobs(deps: Deps): void {
  // One prune does what the earlier ones would: a clock advance runs only the last (Scheduler.deferRecurring).
  deps.jobs.every(IDEMPOTENCY_PRUNE_JOB, EVERY_MS, () => deps.idempotency.prune(), { catchUp: true });
}
