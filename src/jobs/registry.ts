/** Registers every job handler with the scheduler: one line per domain group. */
import type { Deps } from "../deps";
import { IDEMPOTENCY_PRUNE_JOB, registerIdempotencyJobs } from "../domain/idempotency/jobs";

/** Called once by createDeps. Each group adds its own `register...Jobs(deps)` here. */
export function registerJobs(deps: Deps): void {
  registerIdempotencyJobs(deps);
  void IDEMPOTENCY_PRUNE_JOB;
}
