/** The hourly prune of events past the 30-day retention (extensions.md "Events API"). */
import type { Deps } from "../deps";
import { pruneEvents } from "./service";

export const EVENTS_PRUNE_JOB = "events.prune";
const EVERY_MS = 3600 * 1000;

/** Registers the hourly prune (one recurring job, Scheduler.every). */
export function registerEventJobs(deps: Deps): void {
  // One prune does what the earlier ones would: a clock advance runs only the last (Scheduler.deferRecurring).
  deps.jobs.every(EVENTS_PRUNE_JOB, EVERY_MS, () => pruneEvents(deps), { catchUp: true });
}
