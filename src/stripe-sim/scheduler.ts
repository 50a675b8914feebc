/**
 * stripe-sim timed work: jobs (refund settlement, dispute opening, webhook delivery attempts)
 * are rows with a due instant in wall-clock epoch ms, so they survive a restart; each gets a
 * timer while the simulator runs. Delays are real time (tests set them small), whereas object
 * timestamps come from the injected clock.
 */
import type { JobKind, JobRow, StripeSimStore } from "./store";

export type JobHandler = (ref: string) => Promise<void> | void;

export class Scheduler {
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();
  private readonly running = new Set<Promise<void>>();
  private handlers: Partial<Record<JobKind, JobHandler>> = {};
  private stopped = false;

  constructor(private readonly store: StripeSimStore) {}

  /** Sets what runs each kind of job. */
  handle(kind: JobKind, fn: JobHandler): void {
    this.handlers[kind] = fn;
  }

  /** Adds a job due in `delayMs` (wall clock). */
  schedule(kind: JobKind, ref: string, delayMs: number): number {
    const id = this.store.addJob(kind, ref, Date.now() + Math.max(0, delayMs));
    this.arm({ id, kind, ref, due_ms: Date.now() + Math.max(0, delayMs) });
    return id;
  }

  /** Runs a job now (control routes: settle a refund early); false when no such job is waiting. */
  async runNow(kind: JobKind, ref: string): Promise<boolean> {
    const jobs = this.store.jobsFor(kind, ref);
    for (const j of jobs) await this.fire(j);
    return jobs.length > 0;
  }

  /** Forgets waiting jobs of `kind` for `ref`. */
  cancel(kind: JobKind, ref: string): void {
    for (const j of this.store.jobsFor(kind, ref)) {
      this.store.takeJob(j.id);
      clearTimeout(this.timers.get(j.id));
      this.timers.delete(j.id);
    }
  }

  /** Arms every stored job (at start). */
  resume(): void {
    for (const j of this.store.jobs()) this.arm(j);
  }

  private arm(job: JobRow): void {
    if (this.stopped) return;
    const t = setTimeout(() => void this.fire(job), Math.max(0, job.due_ms - Date.now()));
    this.timers.set(job.id, t);
  }

  private fire(job: JobRow): Promise<void> {
    clearTimeout(this.timers.get(job.id));
    this.timers.delete(job.id);
    if (this.stopped || !this.store.takeJob(job.id)) return Promise.resolve();
    const fn = this.handlers[job.kind];
    const p = (async () => {
      try {
        if (fn) await fn(job.ref);
      } catch (err) {
        process.stderr.write(`stripe-sim: job ${job.kind} ${job.ref} failed: ${(err as Error).message}\n`);
      }
    })();
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
    return p;
  }

  /** Stops arming timers and waits for running jobs. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }
}
