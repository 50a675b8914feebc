/** Claiming due jobs and running one claimed job to its recorded outcome (the loop of src/jobs/scheduler.ts). */
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { Store, Uow } from "../store/port";
import type { ClaimRequest, NewJob } from "../store/port/jobs";
import type { JobOutcome, JobRow } from "../domain/jobs";
import { DEFAULTS, type Registered } from "./types";
import { recordFailedRun, recordSucceededRun, writeSucceededRun } from "./outcome";

/**
 * Claims due jobs in one unit, which first writes `recurring` (rows registered since the last
 * claim); `opened` is called inside the unit once both statements are issued (the scheduler then
 * starts remembering what enqueueNoLaterThan asks). Returns the jobs with their dedupe keys.
 */
export async function claimDueJobs(
  store: Store,
  recurring: NewJob[],
  req: ClaimRequest,
  opened: () => void,
): Promise<[JobRow, string | null][]> {
  const rows = await store.tx(async (uow) => {
    // Both statements are issued before the one await (on SQLite they have run by then).
    const saved = recurring.length > 0 ? uow.jobs.enqueueMany(recurring) : null;
    opened();
    const claimed = req.limit > 0 ? uow.jobs.claimDue(req) : [];
    await saved;
    return claimed;
  });
  return rows.map((r) => [
    { id: r.id, kind: r.kind, payload: JSON.parse(r.payload), attempts: r.attempts, dueAt: r.dueAt },
    r.dedupeKey,
  ]);
}

/** What running one job needs of its scheduler. */
export interface RunContext {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** The job kind's registration; undefined when none (the run fails). */
  reg: Registered | undefined;
  /** Dedupe key -> earliest due time enqueueNoLaterThan asked while the job ran (the scheduler's map). */
  askedWhileRunning: Map<string, number>;
  /** Arms the scheduler's timer no later than a time (epoch ms). */
  armAt: (at: number) => void;
}

/**
 * Runs the claimed `job` (dedupe key `dedupeKey`) outside any unit and records its outcome: in
 * the handler's last unit when it called `JobRow.finish`, else in a unit of its own (a failure is
 * retried after its backoff, or dead once its attempts are spent); arms the timer for its next run.
 */
export async function runJob(ctx: RunContext, job: JobRow, dedupeKey: string | null): Promise<void> {
  const { reg, askedWhileRunning } = ctx;
  let outcome: JobOutcome;
  // Earliest time asked by enqueueNoLaterThan while the handler ran; read inside the unit that
  // writes the outcome (units never interleave), forgotten once it committed.
  const asked = (uow: Uow): number => {
    if (dedupeKey === null) return Infinity;
    uow.afterCommit(() => askedWhileRunning.delete(dedupeKey));
    return askedWhileRunning.get(dedupeKey) ?? Infinity;
  };
  // Set once a unit of the handler that recorded the outcome (JobRow.finish) committed.
  let finished: { due: number | null } | null = null;
  const finish = async (uow: Uow, result: JobOutcome): Promise<void> => {
    const due = await writeSucceededRun(uow, job, result, asked);
    uow.afterCommit(() => {
      finished = { due };
    });
  };
  try {
    if (!reg) throw new Error(`no handler for job kind ${job.kind}`);
    outcome = await reg.handler({ ...job, finish });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const done = finished as { due: number | null } | null;
    if (done) {
      // Its outcome is committed: nothing of the run is left to retry.
      ctx.logger.error({ job: job.id, kind: job.kind, err: message }, "job failed after recording its outcome");
      if (done.due !== null) ctx.armAt(done.due);
      return;
    }
    const { maxAttempts, backoff } = reg ?? DEFAULTS;
    const dead = job.attempts >= maxAttempts;
    ctx.logger.warn({ job: job.id, kind: job.kind, attempts: job.attempts, dead, err: message }, "job failed");
    const retryAt = ctx.clock.nowMs() + backoff(job.attempts) * 1000;
    const dueAt = await recordFailedRun(ctx.store, job, message, dead, retryAt, asked);
    if (!dead) ctx.armAt(dueAt);
    return;
  }
  const done = finished as { due: number | null } | null;
  const retryAt = done ? done.due : await recordSucceededRun(ctx.store, job, outcome, asked);
  if (retryAt !== null) ctx.armAt(retryAt);
}
