/**
 * The scheduler's internal types: a registered kind's retry policy and its defaults. The public
 * ones (a claimed job, what a handler returns, handler and enqueue options) are the domain's
 * (src/domain/jobs.ts).
 */
import type { JobHandler } from "../domain/jobs";

/** A registered job kind: its handler and its retry policy (lease and backoff in ms / seconds). */
export interface Registered {
  handler: JobHandler;
  maxAttempts: number;
  leaseMs: number;
  backoff: (attempt: number) => number;
}

/** What a job kind gets when it was registered without options (or was never registered). */
export const DEFAULTS: Omit<Registered, "handler"> = {
  maxAttempts: 25,
  leaseMs: 120_000,
  backoff: (n) => Math.min(2 ** n, 3600),
};

/** Epoch ms of a due time given as a Date or epoch ms. */
export function dueMs(due: Date | number): number {
  return typeof due === "number" && Number.isSafeInteger(due) ? due : new Date(due).getTime();
}
