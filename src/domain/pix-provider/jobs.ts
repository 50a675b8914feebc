/**
 * The daily certificate check of Pix provider connections (issue 14 §2): each active connection
 * whose client certificate expires within EXPIRY_WARNING_DAYS (30) days, or already has, is
 * logged at warn once a day (one recurring job, Scheduler.every); and the sweep of received Pix
 * every 10 min (./sweep.ts).
 */
import type { Deps } from "../deps";
import { DAY_MS, warnIfExpiring } from "./service";
import { PIX_SWEEP_JOB, SWEEP_EVERY_MS, sweepReceivedPix } from "./sweep";

export const CERTIFICATE_CHECK_JOB = "pix_provider.certificate_check";

/** Logs every connection whose certificate expires within 30 days; returns how many. */
export async function checkCertificates(deps: Deps): Promise<number> {
  return (await deps.store.read.pixProvider.listActive()).filter((row) => warnIfExpiring(deps, row)).length;
}

export function registerPixProviderJobs(deps: Deps): void {
  // Idle without an active connection: a clock advance skips their empty periods (Scheduler.deferRecurring).
  const idle = async () => (await deps.store.read.pixProvider.listActive()).length === 0;
  deps.jobs.every(CERTIFICATE_CHECK_JOB, DAY_MS, () => checkCertificates(deps), { idle });
  deps.jobs.every(PIX_SWEEP_JOB, SWEEP_EVERY_MS, () => sweepReceivedPix(deps), { idle });
}
