/** The scheduler's public types: a claimed job, what a handler returns, handler and enqueue options. */

export interface JobRow {
  id: string;
  kind: string;
  payload: unknown;
  /**
   * Runs since the job was enqueued or last returned `{retryAt}`: 1 on the first run, 2 on the
   * first retry after a thrown error or an expired lease, and so on.
   */
  attempts: number;
  dueAt: number;
}

/** What a handler may return: nothing (done, row deleted) or a time to run again. */
export type JobOutcome = void | { retryAt: Date | number };

export type JobHandler = (job: JobRow) => Promise<JobOutcome> | JobOutcome;

export interface HandlerOptions {
  /** After this many failed runs the job is kept as `dead` (default 25). */
  maxAttempts?: number;
  /** How long a claim owns the job, in seconds (default 120). Longer than the handler's timeout. */
  leaseSeconds?: number;
  /** Delay before retry `n` (1-based) after a thrown error, in seconds (default 2^n, max 3600). */
  backoff?: (attempt: number) => number;
}

export interface EnqueueInput {
  kind: string;
  payload?: unknown;
  /** When it becomes runnable; default now. */
  dueAt?: Date | number;
  /** At most one live job per dedupe key: a second enqueue with the same key is ignored. */
  dedupeKey?: string;
}

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
