/**
 * Durable job scheduler: rows in `jobs`, one in-process loop that sleeps until the next due job
 * on the injectable clock, claims due jobs with a lease, runs handlers outside the claim
 * transaction and records the outcome. A job whose lease expired (the process died mid-run)
 * is claimed again; a job that was due while the process was down runs on start.
 */
import type { Statement } from "bun:sqlite";
import { and, asc, eq, isNull, lt, lte, notInArray, or, sql } from "drizzle-orm";
import { jobs } from "../../db/schema";
import type { Db, DbOrTx } from "../db/client";
import { tx } from "../db/client";
import type { Clock } from "../lib/clock";
import { newId } from "../lib/ids";
import type { Logger } from "../lib/logger";

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

  /** Registers the handler of a job kind. Throws when the kind is registered twice. */
  register(kind: string, handler: JobHandler, opts: HandlerOptions = {}): void {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} registered twice`);
    this.handlers.set(kind, {
      handler,
      maxAttempts: opts.maxAttempts ?? 25,
      leaseMs: (opts.leaseSeconds ?? 120) * 1000,
      backoff: opts.backoff ?? ((n) => Math.min(2 ** n, 3600)),
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
    this.insertJob().run(newId("job"), input.kind, JSON.stringify(input.payload ?? {}), dueAt, input.dedupeKey ?? null, now);
    if (this.running) queueMicrotask(() => this.arm(dueAt));
  }

  private insertStmt: Statement | null = null;
  /** `INSERT ... ON CONFLICT DO NOTHING` of one job row, prepared once (create hot path). */
  private insertJob(): Statement {
    return (this.insertStmt ??= this.db.$client.prepare(
      "insert into jobs (id, kind, payload, due_at, dedupe_key, created_at) values (?, ?, ?, ?, ?, ?) on conflict do nothing",
    ));
  }

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
   * Runs every job that is due now, and the jobs those make due, until none is left and
   * none is in flight. Used by the clock-advance helper and by tests.
   */
  async drain(): Promise<void> {
    for (let guard = 0; guard < 100_000; guard++) {
      this.fill();
      if (this.inflight.size === 0) return;
      await Promise.race(this.inflight.values());
    }
  }

  /** Number of queued (not dead) jobs of `kind`, for tests and health. */
  pending(kind?: string): number {
    const where = kind ? and(eq(jobs.state, "queued"), eq(jobs.kind, kind)) : eq(jobs.state, "queued");
    return this.db.select({ n: sql<number>`count(*)` }).from(jobs).where(where).get()!.n;
  }

  private wake(): void {
    if (!this.running) return;
    this.fill();
    this.arm();
  }

  /** Claims as many due jobs as there are free slots and starts them. */
  private fill(): void {
    const free = this.concurrency - this.inflight.size;
    if (free <= 0) return;
    for (const job of this.claim(free)) {
      const p = this.execute(job).finally(() => {
        this.inflight.delete(job.id);
        this.wake();
      });
      this.inflight.set(job.id, p);
    }
  }

  private claim(limit: number): (JobRow & { leaseMs: number })[] {
    const now = this.clock.nowMs();
    return tx(this.db, (t) => {
      const rows = t
        .select()
        .from(jobs)
        .where(
          and(
            eq(jobs.state, "queued"),
            lte(jobs.dueAt, now),
            or(isNull(jobs.leaseUntil), lt(jobs.leaseUntil, now)),
            // A job still running here is never started twice, even past its lease.
            this.inflight.size ? notInArray(jobs.id, [...this.inflight.keys()]) : undefined,
          ),
        )
        .orderBy(asc(jobs.dueAt))
        .limit(limit)
        .all();
      return rows.map((r) => {
        const leaseMs = this.handlers.get(r.kind)?.leaseMs ?? 120_000;
        t.update(jobs)
          .set({ leaseUntil: now + leaseMs, attempts: r.attempts + 1 })
          .where(eq(jobs.id, r.id))
          .run();
        return { id: r.id, kind: r.kind, payload: JSON.parse(r.payload), attempts: r.attempts + 1, dueAt: r.dueAt, leaseMs };
      });
    });
  }

  private async execute(job: JobRow): Promise<void> {
    const reg = this.handlers.get(job.kind);
    let outcome: JobOutcome;
    try {
      if (!reg) throw new Error(`no handler for job kind ${job.kind}`);
      outcome = await reg.handler(job);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const maxAttempts = reg?.maxAttempts ?? 25;
      const dead = job.attempts >= maxAttempts;
      this.logger.warn({ job: job.id, kind: job.kind, attempts: job.attempts, dead, err: message }, "job failed");
      const backoff = reg?.backoff ?? ((n: number) => Math.min(2 ** n, 3600));
      this.db
        .update(jobs)
        .set({
          leaseUntil: null,
          lastError: message.slice(0, 1000),
          state: dead ? "dead" : "queued",
          dueAt: this.clock.nowMs() + backoff(job.attempts) * 1000,
        })
        .where(eq(jobs.id, job.id))
        .run();
      return;
    }
    if (outcome && "retryAt" in outcome) {
      this.db
        .update(jobs)
        .set({ leaseUntil: null, attempts: 0, lastError: null, dueAt: new Date(outcome.retryAt).getTime() })
        .where(eq(jobs.id, job.id))
        .run();
    } else {
      this.db.delete(jobs).where(eq(jobs.id, job.id)).run();
    }
  }

  /** Sets the timer for the next due job (or `hint`, when earlier). */
  private arm(hint?: number): void {
    if (!this.running) return;
    // Every slot busy: the next job to finish calls wake(); a timer now would only spin.
    if (this.inflight.size >= this.concurrency) return;
    let next = hint ?? Infinity;
    if (hint === undefined) {
      const running = [...this.inflight.keys()];
      const row = this.db
        .select({ due: sql<number | null>`min(max(${jobs.dueAt}, coalesce(${jobs.leaseUntil}, 0)))` })
        .from(jobs)
        .where(and(eq(jobs.state, "queued"), running.length ? notInArray(jobs.id, running) : undefined))
        .get();
      next = row?.due ?? Infinity;
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
