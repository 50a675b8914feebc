/**
 * Recording a job run's outcome (src/jobs/run.ts), each in one unit of work: a failure is
 * queued again after its backoff (or dead once its attempts are spent), a success is deleted, or
 * rescheduled when the handler asked for a `retryAt` or somebody asked for an earlier run while it
 * ran (`asked`, read inside the unit; Infinity when nobody did). Times are epoch ms.
 */
import type { Store, Uow } from "../store/port";
import type { JobOutcome, JobRow } from "../domain/jobs";

/** Writes a failed run; returns the time it runs again (meaningless when `dead`). */
export function recordFailedRun(
  store: Store,
  job: JobRow,
  message: string,
  dead: boolean,
  backoffDue: number,
  asked: (uow: Uow) => number,
): Promise<number> {
  return store.tx(async (uow) => {
    const due = Math.min(backoffDue, asked(uow));
    await uow.jobs.recordFailure(job.id, message.slice(0, 1000), dead ? "dead" : "queued", due);
    return due;
  });
}

/** Writes a successful run in a unit of its own; returns when it runs again, or null when it is done (deleted). */
export function recordSucceededRun(
  store: Store,
  job: JobRow,
  outcome: JobOutcome,
  asked: (uow: Uow) => number,
): Promise<number | null> {
  return store.tx((uow) => writeSucceededRun(uow, job, outcome, asked));
}

/**
 * Writes a successful run in the unit `uow` (the scheduler's own, or the handler's last one:
 * JobRow.finish); returns when it runs again, or null when it is done (deleted).
 */
export async function writeSucceededRun(
  uow: Uow,
  job: Pick<JobRow, "id">,
  outcome: JobOutcome,
  asked: (uow: Uow) => number,
): Promise<number | null> {
  const earliest = asked(uow);
  const retryAt = outcome && "retryAt" in outcome ? new Date(outcome.retryAt).getTime() : Infinity;
  if (retryAt !== Infinity || earliest !== Infinity) {
    const due = Math.min(retryAt, earliest);
    await uow.jobs.reschedule(job.id, due);
    return due;
  }
  await uow.jobs.complete(job.id);
  return null;
}
