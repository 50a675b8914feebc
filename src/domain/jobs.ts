/**
 * The job queue as the domain sees it: the types of a job, of what its handler returns and of
 * what is enqueued, and `JobQueue`, the calls the domain makes (register handlers, enqueue in the
 * business unit of work). The scheduler in src/jobs/scheduler.ts implements it.
 */
import type { Uow } from "../store/port";

/** A claimed job, as its handler gets it. */
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
  /**
   * Records this run's outcome (as the handler would return it) in the handler's own unit `uow`,
   * so it commits with the run's last writes: one unit of work less per run (measured in
   * docs/performance.md, issue 25 §3 clock). Once that unit committed, the scheduler records
   * nothing more for the run: what the handler then returns is ignored, and an error it throws
   * is only logged. Call it at most once per run, in the handler's last unit. Set by the
   * scheduler (absent on a job a test builds by hand).
   */
  finish?: (uow: Uow, outcome: JobOutcome) => Promise<void>;
}

/** What a handler may return: nothing (done, row deleted) or a time to run again. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler may end in any void call (`() => resolve()`); `undefined` would refuse it
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

/**
 * What a recurring job (`JobQueue.every`) tells the clock advance about its runs, so an advance
 * over days does not step through every empty period (src/jobs/recurring.ts). The running loop
 * ignores both: under real time every run happens.
 */
export interface RecurringOptions {
  /**
   * True when a run now would do nothing and would keep doing nothing until some other job or
   * request changes the data (e.g. no account has a connection the job polls). One cheap read.
   */
  idle?: () => Promise<boolean> | boolean;
  /** One run does what any number of earlier runs would have (a prune of rows older than now - retention). */
  catchUp?: boolean;
}

/** The durable job queue the domain registers its handlers with and enqueues into (src/jobs/scheduler.ts). */
export interface JobQueue {
  /** Registers the handler of a job kind. Throws when the kind is registered twice. */
  register(kind: string, handler: JobHandler, opts?: HandlerOptions): void;
  /**
   * Registers `kind` as a recurring job: `run` every `everyMs` milliseconds, the first time
   * `everyMs` from now. One row whatever the restarts (its dedupe key is the kind).
   */
  every(kind: string, everyMs: number, run: () => unknown, opts?: RecurringOptions): void;
  /** Writes a job row in the unit `uow` (the business unit, so the job commits with it). */
  enqueue(uow: Uow, input: EnqueueInput): Promise<void>;
  /** `enqueue` of several jobs in the unit `uow`. */
  enqueueMany(uow: Uow, inputs: EnqueueInput[]): Promise<void>;
  /**
   * Makes sure a live job with `input.dedupeKey` exists and is due no later than `input.dueAt`:
   * inserts it in `uow` when there is none, pulls a queued one's due time earlier (never later).
   */
  enqueueNoLaterThan(uow: Uow, input: EnqueueInput & { dedupeKey: string; dueAt: Date | number }): Promise<void>;
  /** Removes the job with `dedupeKey` in `uow` (e.g. an expiry made moot by payment). */
  cancel(uow: Uow, dedupeKey: string): Promise<void>;
}
