/**
 * The hourly prune of request-log rows older than `COFRE_REQUEST_LOG_RETENTION_DAYS` (config.requestLogRetentionDays).
 */
import type { Deps } from "../deps";
import { pruneRequestLog } from "./request-log";

export const REQUEST_LOG_PRUNE_JOB = "request_log.prune";
const EVERY_MS = 3600 * 1000;
const DAY_MS = 86_400 * 1000;

/**
 * Registers the hourly prune (one recurring job, Scheduler.every). Why: one row per API request
 * grows without bound (at 8,000 requests/s, ~2 GB an hour); 0 days keeps every row.
 */
export function registerAuditJobs(deps: Deps): void {
  deps.jobs.every(
    REQUEST_LOG_PRUNE_JOB,
    EVERY_MS,
    async () => {
      const days = deps.config.requestLogRetentionDays;
      if (days > 0) await pruneRequestLog(deps, deps.clock.nowMs() - days * DAY_MS);
    },
    { catchUp: true },
  ); // one prune does what the earlier ones would: a clock advance runs only the last (Scheduler.deferRecurring)
}
