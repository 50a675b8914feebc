/** Job handlers of the med group: `med.deadline` (the response deadline of an open case). */
import type { Deps } from "../deps";
import { MED_DEADLINE_JOB, runDeadline } from "./service";

/** Registers `med.deadline` (payload `{caseId}`); queued by `applyMedNotice` at `response_deadline`. */
export function registerMedJobs(deps: Deps): void {
  deps.jobs.register(MED_DEADLINE_JOB, async (job) => {
    await runDeadline(deps, (job.payload as { caseId: string }).caseId);
  });
}
