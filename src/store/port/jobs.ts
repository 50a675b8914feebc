/**
 * The jobs repository of the storage port (see src/store/port.ts): the durable scheduler's `jobs`
 * table (src/jobs/scheduler.ts): enqueue, claim with a lease, record the outcome. Times in epoch ms.
 */

/** A job row to insert; `payload` is JSON text. At most one live row per `dedupeKey`. */
export interface NewJob {
  id: string;
  kind: string;
  payload: string;
  /** When it becomes claimable (epoch ms). */
  dueAt: number;
  dedupeKey: string | null;
  createdAt: number;
}

/** A claimed job: `attempts` already counts this run; `payload` is JSON text. */
export interface ClaimedJob {
  id: string;
  kind: string;
  payload: string;
  attempts: number;
  dueAt: number;
  dedupeKey: string | null;
}

/** A queued job due by now that somebody holds a lease on (in flight here, or orphaned by a dead worker). */
export interface LeasedJob {
  id: string;
  dueAt: number;
  leaseUntil: number | null;
}

/** What to claim and for how long (see `JobsRepo.claimDue`). */
export interface ClaimRequest {
  /** Epoch ms. */
  now: number;
  /** Jobs to lease at most. */
  limit: number;
  /** Jobs this process runs already (never leased twice, even past their lease). */
  running: { has(id: string): boolean; readonly size: number };
  /** Lease length of a job kind, in ms. */
  leaseMs: (kind: string) => number;
}

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. */
export interface JobsRepo {
  /** Inserts `job`; nothing when a live job with the same dedupe key exists. */
  enqueue(job: NewJob): Promise<void>;
  /** Inserts each of `jobs` (as `enqueue`), in order. */
  enqueueMany(jobs: NewJob[]): Promise<void>;
  /**
   * Inserts `job`, or pulls the queued job with the same dedupe key earlier to `job.dueAt` (never
   * later; its payload is kept; a dead job stays dead); writes nothing when it is already due no later.
   */
  enqueueNoLaterThan(job: NewJob & { dedupeKey: string }): Promise<void>;
  /** Deletes the job with `dedupeKey` (queued or dead). */
  cancel(dedupeKey: string): Promise<void>;
  /** Deletes the jobs with these dedupe keys. */
  cancelMany(dedupeKeys: string[]): Promise<void>;
  /**
   * Leases up to `limit` claimable jobs (queued, due by `now`, lease absent or expired), oldest due
   * first, skipping the ones in `running`: lease until `now + leaseMs(kind)`, attempts + 1.
   */
  claimDue(req: ClaimRequest): Promise<ClaimedJob[]>;
  /** Deletes the finished job `id`. */
  complete(id: string): Promise<void>;
  /** Queues job `id` again at `dueAt` with its attempts reset (a handler's `{retryAt}`). */
  reschedule(id: string, dueAt: number): Promise<void>;
  /** Records a failed run: `state` "queued" (retried at `dueAt`) or "dead"; `error` kept as last_error. */
  recordFailure(id: string, error: string, state: "queued" | "dead", dueAt: number): Promise<void>;
  /**
   * For the loop's timer at `now`: the earliest due time of a queued job due after `now` (null:
   * none), and the jobs due by `now` still leased. On PostgreSQL `laterDue` may be <= `now`: a due
   * row the last claim skipped because another unit held it locked for a moment.
   */
  wakeTimes(now: number): Promise<{ laterDue: number | null; leased: LeasedJob[] }>;
  /**
   * For the clock advance at `now`: the due time of the earliest queued job nobody leases (null:
   * none), and the jobs due by `now` still leased.
   */
  claimableTimes(now: number): Promise<{ firstUnleased: number | null; leased: LeasedJob[] }>;
  /** Number of queued (not dead) jobs, of `kind` when given. */
  countQueued(kind?: string): Promise<number>;
  /**
   * For the clock advance: the queued jobs nobody leases whose dedupe key is one of `dedupeKeys`
   * and that are due by `byMs` (the recurring jobs it may defer; src/jobs/scheduler.ts `deferRecurring`).
   */
  queuedByKeys(dedupeKeys: readonly string[], byMs: number): Promise<{ dedupeKey: string; dueAt: number }[]>;
  /**
   * For the clock advance: the due time of the earliest queued job nobody leases whose dedupe key is not in
   * `dedupeKeys` (null: none).
   */
  firstUnleasedExcept(dedupeKeys: readonly string[]): Promise<number | null>;
  /**
   * Moves the queued, unleased job with `dedupeKey` from `fromDueAt` to `toDueAt` (epoch ms); nothing
   * when it is no longer queued there unleased (a peer claimed or moved it). True when it moved.
   */
  deferQueued(dedupeKey: string, fromDueAt: number, toDueAt: number): Promise<boolean>;
  /**
   * Per kind: queued (not dead) jobs, how many of them are due by `now` and not leased, and the
   * due time of the oldest such one (null when none). Read by the metrics scrape (src/lib/metrics.ts).
   */
  queueStats(now: number): Promise<{ kind: string; queued: number; due: number; oldestDueAt: number | null }[]>;
}
