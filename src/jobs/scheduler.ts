/**
 * Durable job scheduler: rows in `jobs` (the store's jobs repository), one in-process loop that
 * sleeps until the next due job on the injectable clock, claims due jobs with a lease in one unit
 * of work, runs handlers outside any unit and records the outcome in another (or in the handler's
 * own last unit when it calls `JobRow.finish`: one unit less per run). A job whose lease
 * expired (the process died mid-run) is claimed again; a job that was due while the process was
 * down runs on start. On PostgreSQL the loops of several instances share the table: a claim
 * skips rows a peer holds, and a peer's `jobs` notice arms the timer (`hint`, src/deps.ts).
 * Hot path (measured in README "Webhooks"): one claim unit and one timer computation per
 * event-loop turn however many jobs finished in it, and claims only once every unit returned so
 * far is durable (`store.durable()`, src/store/port.ts).
 */
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { Store, Uow } from "../store/port";
import type { LeasedJob, NewJob } from "../store/port/jobs";
import type { EnqueueInput, HandlerOptions, JobHandler, JobQueue, JobRow, RecurringOptions } from "../domain/jobs";

export type {
  EnqueueInput,
  HandlerOptions,
  JobHandler,
  JobOutcome,
  JobQueue,
  JobRow,
  RecurringOptions,
} from "../domain/jobs";
import { DEFAULTS, newJobRow, type Registered } from "./types";
import { claimDueJobs, runJob } from "./run";
import { dueButSkipped, leasedByPeers } from "./peers";
import { WakeTimer } from "./timer";
import { deferRecurringJobs, type RecurringJob } from "./recurring";

/** How soon the loop looks again at a due job its claim skipped as locked by another unit (PostgreSQL), ms. */
const SKIPPED_RETRY_MS = 10;

/** The durable job queue (src/domain/jobs.ts `JobQueue`) and its loop (module doc). */
export class Scheduler implements JobQueue {
  private handlers = new Map<string, Registered>();
  private inflight = new Map<string, Promise<void>>();
  private timer = new WakeTimer(() => this.wake());
  /** Bumped by every hinted arm, so a timer computation that read the table before it keeps the earlier time. */
  private armGen = 0;
  private running = false;
  private unsubscribe: (() => void) | null = null;
  /** Rows of recurring jobs registered by `every` and not written yet (written before the next claim). */
  private unsaved: NewJob[] = [];
  /** Claims run one after the other (each counts the free slots when it starts). */
  private fillChain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Jobs run at once, at most; one slow job never holds the others back. */
    private readonly concurrency = 32,
  ) {}

  /**
   * Told of each job as it starts: its kind and how late it started (ms past its due time); metrics
   * (src/lib/metrics.ts).
   */
  onStart?: (kind: string, lagMs: number) => void;

  /**
   * Registers `kind` as a recurring job: `run` every `everyMs` milliseconds, the first time
   * `everyMs` from now. One row whatever the restarts (its dedupe key is the kind); the row is
   * written before the loop's (or `drain`'s, `nextDueAt`'s, `pending`'s) next look at the table.
   */
  every(kind: string, everyMs: number, run: () => unknown, opts: RecurringOptions = {}): void {
    this.register(kind, async () => {
      await run();
      return { retryAt: this.clock.nowMs() + everyMs };
    });
    if (opts.idle || opts.catchUp) this.recurring.set(kind, { everyMs, ...opts });
    this.unsaved.push(this.newJob({ kind, dueAt: this.clock.nowMs() + everyMs, dedupeKey: kind }));
  }

  /** Recurring kinds registered with an `idle` test or `catchUp` (their dedupe key is the kind). */
  private recurring = new Map<string, RecurringJob>();

  /**
   * For the clock advance (src/jobs/advance.ts), before it steps to `next` (epoch ms, the earliest
   * claimable job): defers the recurring jobs due by `until` whose runs would change nothing (the
   * rules: `deferRecurringJobs`, ./recurring.ts). True when a job moved (the caller looks again).
   */
  async deferRecurring(next: number, until: number): Promise<boolean> {
    if (this.recurring.size === 0) return false;
    await this.saveRecurring();
    return deferRecurringJobs(this.store, this.recurring, next, until);
  }

  /** Registers the handler of a job kind. Throws when the kind is registered twice. */
  register(kind: string, handler: JobHandler, opts: HandlerOptions = {}): void {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} registered twice`);
    this.handlers.set(kind, {
      handler,
      maxAttempts: opts.maxAttempts ?? DEFAULTS.maxAttempts,
      leaseMs: opts.leaseSeconds === undefined ? DEFAULTS.leaseMs : opts.leaseSeconds * 1000,
      backoff: opts.backoff ?? DEFAULTS.backoff,
    });
  }

  private newJob(input: EnqueueInput): NewJob {
    return newJobRow(input, this.clock.nowMs());
  }

  /**
   * Writes a job row in the unit `uow` (the business unit, so the job commits with it) and wakes
   * the loop for its due time once the unit has committed.
   */
  enqueue(uow: Uow, input: EnqueueInput): Promise<void> {
    const job = this.newJob(input);
    uow.afterCommit(() => this.armAt(job.dueAt));
    return uow.jobs.enqueue(job);
  }

  /** `enqueue` of several jobs in the unit `uow`: one repository call, one wake-up. */
  async enqueueMany(uow: Uow, inputs: EnqueueInput[]): Promise<void> {
    if (inputs.length === 0) return;
    const rows = inputs.map((i) => this.newJob(i));
    const first = Math.min(...rows.map((r) => r.dueAt));
    uow.afterCommit(() => this.armAt(first));
    await uow.jobs.enqueueMany(rows);
  }

  /**
   * Makes sure a live job with `input.dedupeKey` exists and is due no later than `input.dueAt`:
   * inserts it in `uow` when there is none, pulls a queued one's due time earlier when it is
   * later (never later; its payload is kept; a dead one stays dead), and wakes the loop for that
   * time once the unit committed. One statement, and no write at all when the job is already due
   * earlier (the usual case for a shared sweep job; src/domain/charges/expiry.ts). When the job
   * is running in this process (or, on PostgreSQL, in any instance: the row's `wake_at`), the
   * earlier time is also remembered and applied when its outcome is recorded, so a `retryAt` (or
   * a completion) the handler computed before this call never postpones it. If the process dies
   * first, the leased row is still due and runs again once its lease ends.
   */
  enqueueNoLaterThan(uow: Uow, input: EnqueueInput & { dedupeKey: string; dueAt: Date | number }): Promise<void> {
    const job = { ...this.newJob(input), dedupeKey: input.dedupeKey };
    const asked = this.askedWhileRunning.get(input.dedupeKey);
    if (asked !== undefined && job.dueAt < asked) this.askedWhileRunning.set(input.dedupeKey, job.dueAt);
    const w = this.askedWhileClaiming;
    if (w) w.set(input.dedupeKey, Math.min(job.dueAt, w.get(input.dedupeKey) ?? Infinity));
    uow.afterCommit(() => this.armAt(job.dueAt));
    return uow.jobs.enqueueNoLaterThan(job);
  }

  /**
   * Dedupe key of each job running in this process -> earliest due time enqueueNoLaterThan asked
   * for it since it was claimed (Infinity: none). Read when the outcome is recorded.
   */
  private askedWhileRunning = new Map<string, number>();
  /**
   * What enqueueNoLaterThan asked between a claim's statement and its jobs being in flight
   * (dedupe key -> earliest time): handed to the jobs claimed, so asking then counts as asking
   * while the job runs. Null outside that window (claims run one at a time).
   */
  private askedWhileClaiming: Map<string, number> | null = null;
  /** Claims queued or running (they run one after the other). */
  private fills = 0;

  /** Removes the job with `dedupeKey` in `uow` (e.g. an expiry made moot by payment). */
  cancel(uow: Uow, dedupeKey: string): Promise<void> {
    return uow.jobs.cancel(dedupeKey);
  }

  /** Starts the loop: runs what is due now, then sleeps until the next due time. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.clock.onAdvance(() => this.wake());
    this.wake();
  }

  /** Stops the loop and waits for running jobs to finish (their rows stay leased until then). */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.timer.clear();
    await this.fillChain;
    await Promise.allSettled([...this.inflight.values()]);
  }

  /**
   * Runs every job that is due now, and the jobs those make due now, until none is left and
   * none is in flight; starts at most `maxJobs` itself (then only waits for those in flight).
   * Returns how many jobs it started. Used by the clock advance (src/jobs/advance.ts) and tests.
   * A wake-up of the running loop still in progress (its claim or timer read) is over first: on
   * PostgreSQL it could otherwise read the table after `drain` returned.
   */
  async drain(maxJobs = Infinity): Promise<number> {
    // Only when one is in progress: an extra await would let the caller's next statement run first.
    if (this.turning) await this.turning;
    let started = 0;
    let lockedWaits = 0;
    for (let guard = 0; guard < 100_000; guard++) {
      if (started < maxJobs) started += await this.fill(maxJobs - started);
      if (this.inflight.size > 0) await Promise.race(this.inflight.values());
      // PostgreSQL claims skip rows another unit holds locked (a create pulling the sweep earlier):
      // a due job can be left behind for a moment. Wait it out (bounded) rather than return.
      else if (started < maxJobs && lockedWaits < 200 && (await dueButSkipped(this.store, this.clock))) {
        lockedWaits++;
        await Bun.sleep(5);
      } else return started;
    }
    return started;
  }

  private startedCount = 0;
  /** Jobs started by this scheduler so far (by its loop and by `drain`). */
  get started(): number {
    return this.startedCount;
  }

  /**
   * Epoch ms at which the earliest queued job becomes claimable: its due time, or 1 ms past the
   * lease of a leased one (in flight, or orphaned by a worker that died); null when no job is
   * queued. Call it with nothing in flight (after `drain`). For the clock advance.
   */
  async nextDueAt(): Promise<number | null> {
    await this.saveRecurring();
    const { firstUnleased, leased } = await this.store.read.jobs.claimableTimes(this.clock.nowMs());
    let next = firstUnleased ?? Infinity;
    // A leased job was claimed, hence due by now: the (state, due_at) index range up to now.
    for (const r of leased) next = Math.min(next, Math.max(r.dueAt, (r.leaseUntil ?? 0) + 1));
    return Number.isFinite(next) ? next : null;
  }

  /**
   * A peer queued a job due at `dueAt` (epoch ms; its `jobs` notice): arms the timer no later than
   * then. Without a time (notices may have been lost in a reconnect) it looks at the table now.
   */
  hint(dueAt?: number): void {
    if (dueAt === undefined || Number.isNaN(dueAt)) this.wake();
    else this.armAt(dueAt);
  }

  /** Jobs due by now leased by another instance, for the clock advance to wait for (./peers.ts). */
  leasedElsewhere(): Promise<LeasedJob[]> {
    return leasedByPeers(this.store, this.clock, this.inflight);
  }

  /** Number of queued (not dead) jobs of `kind`, for tests and health. */
  async pending(kind?: string): Promise<number> {
    await this.saveRecurring();
    return this.store.read.jobs.countQueued(kind);
  }

  /** Writes the rows of recurring jobs registered since the last look (one unit). */
  private async saveRecurring(): Promise<void> {
    if (this.unsaved.length === 0) return;
    const rows = this.unsaved;
    this.unsaved = [];
    await this.store.tx((uow) => uow.jobs.enqueueMany(rows));
  }

  private wake(): void {
    if (!this.running) return;
    // Units returned so far may not be durable yet: claim once they are, so a job (and the rows
    // its handler reads) is never acted on before it is durable.
    const open = this.store.durable();
    if (open) {
      open.then(
        () => this.wake(),
        () => {},
      );
      return;
    }
    const turn = this.turn().finally(() => {
      if (this.turning === turn) this.turning = null;
    });
    this.turning = turn;
  }

  /** The loop's wake-up in progress (claim, then timer), if any: `drain` waits for it so its own look comes after. */
  private turning: Promise<void> | null = null;

  /** One wake-up: write pending recurring rows, claim and start what is due, set the timer. */
  private async turn(): Promise<void> {
    try {
      // A job enqueued after the claim read the table arms its own time: the timer computed
      // below keeps it when earlier.
      const gen = this.armGen;
      await this.fill();
      await this.rearm(gen);
    } catch (err) {
      if (this.running) this.logger.error({ err }, "scheduler wake-up failed");
    }
  }

  private wakeQueued = false;
  /**
   * Wakes the loop once at the end of this event-loop turn, however many jobs finished in it:
   * one claim unit and one timer computation per turn instead of one per job.
   */
  private wakeSoon(): void {
    if (this.wakeQueued || !this.running) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      this.wake();
    });
  }

  /** Claims as many due jobs as there are free slots (at most `budget`), starts them, and returns how many. */
  private fill(budget = Infinity): Promise<number> {
    // The first claim starts at once (on SQLite its statements run before this returns), later
    // ones after it.
    const run = () => this.fillNow(budget);
    const p = (this.fills++ === 0 ? run() : this.fillChain.then(run)).finally(() => void this.fills--);
    this.fillChain = p.catch(() => 0);
    return p;
  }

  private async fillNow(budget: number): Promise<number> {
    const free = Math.min(this.concurrency - this.inflight.size, budget);
    if (free <= 0 && this.unsaved.length === 0) return 0;
    let claimed: [JobRow, string | null][];
    let asked: Map<string, number> | null;
    try {
      claimed = await this.claim(Math.max(free, 0));
    } finally {
      asked = this.askedWhileClaiming;
      this.askedWhileClaiming = null;
    }
    this.startedCount += claimed.length;
    const startedAt = this.onStart ? this.clock.nowMs() : 0;
    for (const [job, dedupeKey] of claimed) {
      this.onStart?.(job.kind, startedAt - job.dueAt);
      if (dedupeKey !== null) this.askedWhileRunning.set(dedupeKey, asked?.get(dedupeKey) ?? Infinity);
      const p = this.execute(job, dedupeKey)
        .catch((err) => this.logger.error({ err, job: job.id, kind: job.kind }, "recording a job outcome failed"))
        .finally(() => {
          this.inflight.delete(job.id);
          this.wakeSoon();
        });
      this.inflight.set(job.id, p);
    }
    return claimed.length;
  }

  /**
   * Claimed jobs with their dedupe keys (one unit, which first writes the recurring jobs
   * registered since the last claim).
   */
  private claim(limit: number): Promise<[JobRow, string | null][]> {
    const recurring = this.unsaved;
    this.unsaved = [];
    const leaseMs = (kind: string) => (this.handlers.get(kind) ?? DEFAULTS).leaseMs;
    const req = { now: this.clock.nowMs(), limit, running: this.inflight, leaseMs };
    return claimDueJobs(this.store, recurring, req, () => {
      this.askedWhileClaiming = new Map();
    }).catch((err: unknown) => {
      this.unsaved.unshift(...recurring);
      throw err;
    });
  }

  private execute(job: JobRow, dedupeKey: string | null): Promise<void> {
    const { store, clock, logger, askedWhileRunning } = this;
    const armAt = (at: number) => this.armAt(at);
    return runJob({ store, clock, logger, reg: this.handlers.get(job.kind), askedWhileRunning, armAt }, job, dedupeKey);
  }

  /** Moves the timer earlier to `hint` (epoch ms) when nothing is due before it. */
  private armAt(hint: number): void {
    this.armGen++;
    if (!this.running) return;
    // Every slot busy: the next job to finish wakes the loop; a timer now would only spin.
    if (this.inflight.size >= this.concurrency) return;
    if (hint >= this.timer.at) return;
    this.timer.set(hint, this.clock.nowMs());
  }

  /** Sets the timer for the next due job, read from the table; keeps an earlier time armed since `gen`. */
  private async rearm(gen: number): Promise<void> {
    if (!this.running || this.inflight.size >= this.concurrency) return;
    const now = this.clock.nowMs();
    // Right after fill(), every job due now is either in flight or leased by a worker that
    // died: those wake the loop when their lease ends (+1 ms: claimable only once past it).
    // Jobs due later are never leased, so the earliest of them is one index seek. On PostgreSQL
    // a due one may also have been skipped, locked by another unit for a moment: look again soon.
    const { laterDue, leased } = await this.store.read.jobs.wakeTimes(now);
    let next = laterDue === null ? Infinity : laterDue > now ? laterDue : now + SKIPPED_RETRY_MS;
    for (const r of leased) {
      if (!this.inflight.has(r.id)) next = Math.min(next, Math.max(r.dueAt, (r.leaseUntil ?? 0) + 1));
    }
    // A hinted arm since the claim (a job enqueued meanwhile) keeps its earlier time.
    if (gen !== this.armGen) next = Math.min(next, this.timer.at);
    if (!this.running || (next === this.timer.at && this.timer.armed)) return;
    if (!Number.isFinite(next)) return;
    this.timer.set(next, this.clock.nowMs());
  }
}
