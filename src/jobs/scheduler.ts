/**
 * Durable job scheduler: rows in `jobs`, one in-process loop that sleeps until the next due job
 * on the injectable clock, claims due jobs with a lease, runs handlers outside the claim
 * transaction and records the outcome. A job whose lease expired (the process died mid-run)
 * is claimed again; a job that was due while the process was down runs on start.
 * Hot path (measured in README "Webhooks"): raw prepared statements, one claim transaction and
 * one timer computation per event-loop turn however many jobs finished in it, and claims only
 * after the turn's group commit (src/db/group-commit.ts) has committed.
 */
import { and, eq, sql } from "drizzle-orm";
import { jobs } from "../../db/schema";
import type { Db, DbOrTx } from "../db/client";
import { tx } from "../db/client";
import { committed } from "../db/group-commit";
import type { Clock } from "../lib/clock";
import { newId } from "../lib/ids";
import type { Logger } from "../lib/logger";
import { prepareStatements, type Statements } from "./statements";

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

interface Registered {
  handler: JobHandler;
  maxAttempts: number;
  leaseMs: number;
  backoff: (attempt: number) => number;
}

const MAX_TIMER_MS = 60_000;

/** What a job kind gets when it was registered without options (or was never registered). */
const DEFAULTS: Omit<Registered, "handler"> = {
  maxAttempts: 25,
  leaseMs: 120_000,
  backoff: (n) => Math.min(2 ** n, 3600),
};

export class Scheduler {
  private handlers = new Map<string, Registered>();
  private inflight = new Map<string, Promise<void>>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  private running = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Jobs run at once, at most; one slow job never holds the others back. */
    private readonly concurrency = 32,
  ) {}

  /**
   * Registers `kind` as a recurring job: `run` every `everyMs` milliseconds, the first time
   * `everyMs` from now. One row whatever the restarts (its dedupe key is the kind).
   */
  every(kind: string, everyMs: number, run: () => unknown): void {
    this.register(kind, async () => {
      await run();
      return { retryAt: this.clock.nowMs() + everyMs };
    });
    this.enqueue(this.db, { kind, dueAt: this.clock.nowMs() + everyMs, dedupeKey: kind });
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

  /**
   * Writes a job row with `t` (pass the business transaction so the job commits with it)
   * and wakes the loop once the caller's synchronous transaction has committed.
   */
  enqueue(t: DbOrTx, input: EnqueueInput): void {
    const now = this.clock.nowMs();
    const due = input.dueAt;
    const dueAt = due === undefined ? now : typeof due === "number" && Number.isSafeInteger(due) ? due : new Date(due).getTime();
    // A prepared statement on the single connection runs inside the caller's open transaction `t`.
    void t;
    this.q().insert.run(newId("job"), input.kind, JSON.stringify(input.payload ?? {}), dueAt, input.dedupeKey ?? null, now);
    if (this.running) queueMicrotask(() => this.arm(dueAt));
  }

  /**
   * Makes sure a live job with `input.dedupeKey` exists and is due no later than `input.dueAt`:
   * inserts it with `t` when there is none, pulls a queued one's due time earlier when it is
   * later (never later; its payload is kept; a dead one stays dead), and wakes the loop for that
   * time. One cached prepared statement, and no write at all when the job is already due
   * earlier (the usual case for a shared sweep job; src/domain/charges/expiry.ts). When the job
   * is running in this process, the earlier time is also remembered and applied when its
   * outcome is recorded, so a `retryAt` (or a completion) the handler computed before this call
   * never postpones it. If the process dies first, the leased row is still due and runs again
   * once its lease ends.
   */
  enqueueNoLaterThan(t: DbOrTx, input: EnqueueInput & { dedupeKey: string; dueAt: Date | number }): void {
    const due = input.dueAt;
    const dueAt = typeof due === "number" && Number.isSafeInteger(due) ? due : new Date(due).getTime();
    void t; // as in enqueue: the statement runs inside the caller's open transaction
    this.q().upsertEarlier.run(newId("job"), input.kind, JSON.stringify(input.payload ?? {}), dueAt, input.dedupeKey, this.clock.nowMs());
    const asked = this.askedWhileRunning.get(input.dedupeKey);
    if (asked !== undefined && dueAt < asked) this.askedWhileRunning.set(input.dedupeKey, dueAt);
    if (this.running && dueAt < this.timerAt) queueMicrotask(() => this.arm(dueAt));
  }

  /**
   * Dedupe key of each job running in this process -> earliest due time enqueueNoLaterThan asked
   * for it since it was claimed (Infinity: none). Read and cleared when the outcome is recorded.
   */
  private askedWhileRunning = new Map<string, number>();

  /** Removes the queued job with `dedupeKey` (e.g. an expiry made moot by payment). */
  cancel(t: DbOrTx, dedupeKey: string): void {
    t.delete(jobs).where(eq(jobs.dedupeKey, dedupeKey)).run();
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
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inflight.values()]);
  }

  /**
   * Runs every job that is due now, and the jobs those make due now, until none is left and
   * none is in flight; starts at most `maxJobs` itself (then only waits for those in flight).
   * Returns how many jobs it started. Used by the clock advance (src/jobs/advance.ts) and tests.
   */
  async drain(maxJobs = Infinity): Promise<number> {
    let started = 0;
    for (let guard = 0; guard < 100_000; guard++) {
      if (started < maxJobs) started += this.fill(maxJobs - started);
      if (this.inflight.size === 0) return started;
      await Promise.race(this.inflight.values());
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
  nextDueAt(): number | null {
    const q = this.q();
    let next = q.firstUnleased.get()?.at ?? Infinity;
    // A leased job was claimed, hence due by now: the (state, due_at) index range up to now.
    for (const r of q.leased.all(this.clock.nowMs())) next = Math.min(next, Math.max(r.dueAt, (r.leaseUntil ?? 0) + 1));
    return Number.isFinite(next) ? next : null;
  }

  /** Number of queued (not dead) jobs of `kind`, for tests and health. */
  pending(kind?: string): number {
    const where = kind ? and(eq(jobs.state, "queued"), eq(jobs.kind, kind)) : eq(jobs.state, "queued");
    return this.db.select({ n: sql<number>`count(*)` }).from(jobs).where(where).get()!.n;
  }

  private wake(): void {
    if (!this.running) return;
    // Under group commit (serve) this turn's writes are not committed yet: claim once they are,
    // so a job (and the rows its handler reads) is never acted on before its commit.
    const open = committed(this.db.$client);
    if (open) {
      open.then(
        () => this.wake(),
        () => {},
      );
      return;
    }
    this.fill();
    this.arm();
  }

  private wakeQueued = false;
  /**
   * Wakes the loop once at the end of this event-loop turn, however many jobs finished in it:
   * one claim transaction and one timer computation per turn instead of one per job.
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
  private fill(budget = Infinity): number {
    const free = Math.min(this.concurrency - this.inflight.size, budget);
    if (free <= 0) return 0;
    const claimed = this.claim(free);
    this.startedCount += claimed.length;
    for (const [job, dedupeKey] of claimed) {
      const p = this.execute(job, dedupeKey).finally(() => {
        this.inflight.delete(job.id);
        this.wakeSoon();
      });
      this.inflight.set(job.id, p);
    }
    return claimed.length;
  }

  private stmts: Statements | null = null;
  private q(): Statements {
    return (this.stmts ??= prepareStatements(this.db));
  }

  /** Claimed jobs with their dedupe keys. */
  private claim(limit: number): [JobRow, string | null][] {
    const now = this.clock.nowMs();
    const q = this.q();
    return tx(this.db, () => {
      // A job still running here is never started twice, even past its lease: fetch enough
      // rows to skip the in-flight ones.
      const rows = q.due.all(now, now, limit + this.inflight.size);
      const out: [JobRow, string | null][] = [];
      for (const r of rows) {
        if (out.length >= limit) break;
        if (this.inflight.has(r.id)) continue;
        const leaseMs = (this.handlers.get(r.kind) ?? DEFAULTS).leaseMs;
        q.lease.run(now + leaseMs, r.attempts + 1, r.id);
        out.push([{ id: r.id, kind: r.kind, payload: JSON.parse(r.payload), attempts: r.attempts + 1, dueAt: r.dueAt }, r.dedupeKey]);
      }
      return out;
    });
  }

  private async execute(job: JobRow, dedupeKey: string | null): Promise<void> {
    const reg = this.handlers.get(job.kind);
    let outcome: JobOutcome;
    if (dedupeKey !== null) this.askedWhileRunning.set(dedupeKey, Infinity);
    // Earliest time asked by enqueueNoLaterThan while the handler ran; taken synchronously with
    // the outcome write below, so no request falls between the two.
    const takeAsked = (): number => {
      if (dedupeKey === null) return Infinity;
      const asked = this.askedWhileRunning.get(dedupeKey) ?? Infinity;
      this.askedWhileRunning.delete(dedupeKey);
      return asked;
    };
    try {
      if (!reg) throw new Error(`no handler for job kind ${job.kind}`);
      outcome = await reg.handler(job);
    } catch (err) {
      const asked = takeAsked();
      const message = err instanceof Error ? err.message : String(err);
      const { maxAttempts, backoff } = reg ?? DEFAULTS;
      const dead = job.attempts >= maxAttempts;
      this.logger.warn({ job: job.id, kind: job.kind, attempts: job.attempts, dead, err: message }, "job failed");
      const dueAt = Math.min(this.clock.nowMs() + backoff(job.attempts) * 1000, asked);
      this.q().fail.run(message.slice(0, 1000), dead ? "dead" : "queued", dueAt, job.id);
      if (!dead) this.arm(dueAt);
      return;
    }
    const asked = takeAsked();
    if ((outcome && "retryAt" in outcome) || asked !== Infinity) {
      const dueAt = Math.min(outcome && "retryAt" in outcome ? new Date(outcome.retryAt).getTime() : Infinity, asked);
      this.q().retry.run(dueAt, job.id);
      this.arm(dueAt);
    } else {
      this.q().remove.run(job.id);
    }
  }

  /** Sets the timer for the next due job (or `hint`, when earlier). */
  private arm(hint?: number): void {
    if (!this.running) return;
    // Every slot busy: the next job to finish wakes the loop; a timer now would only spin.
    if (this.inflight.size >= this.concurrency) return;
    let next = hint ?? Infinity;
    if (hint === undefined) {
      const now = this.clock.nowMs();
      const q = this.q();
      // Right after fill(), every job due now is either in flight or leased by a worker that
      // died: those wake the loop when their lease ends (+1 ms: claimable only once past it).
      // Jobs due later are never leased, so the earliest of them is one index seek.
      next = q.nextDue.get(now)?.due ?? Infinity;
      for (const r of q.leased.all(now)) {
        if (!this.inflight.has(r.id)) next = Math.min(next, Math.max(r.dueAt, (r.leaseUntil ?? 0) + 1));
      }
      if (next === this.timerAt && this.timer) return;
    } else if (hint >= this.timerAt) {
      return;
    }
    if (!Number.isFinite(next)) return;
    if (this.timer) clearTimeout(this.timer);
    const delay = Math.max(0, Math.min(next - this.clock.nowMs(), MAX_TIMER_MS));
    this.timerAt = next;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.wake();
    }, delay);
  }
}
