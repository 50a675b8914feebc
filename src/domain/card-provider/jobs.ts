/**
 * Jobs of the card provider connections: the dispute check (./disputes.ts) and the periodic event sweep (./events.ts).
 */
import type { Deps } from "../deps";
import { runDisputeCheck } from "./disputes";
import { DISPUTE_CHECK_JOB, EVENT_SWEEP_EVERY_MS, EVENT_SWEEP_JOB, sweepCardEvents } from "./events";

export function registerCardProviderJobs(deps: Deps): void {
  deps.jobs.register(DISPUTE_CHECK_JOB, (job) => {
    const { connectionId, disputeId } = job.payload as { connectionId: string; disputeId: string };
    return runDisputeCheck(deps, connectionId, disputeId);
  });
  deps.jobs.every(
    EVENT_SWEEP_JOB,
    EVENT_SWEEP_EVERY_MS,
    async () => {
      await sweepCardEvents(deps);
    },
    // Idle without an active card connection: a clock advance skips its empty periods (Scheduler.deferRecurring).
    { idle: async () => (await deps.store.read.cardProvider.listActive()).length === 0 },
  );
}
