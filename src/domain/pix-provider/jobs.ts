/**
 * The daily certificate check of Pix provider connections (issue 14 §2): each active connection
 * whose client certificate expires within EXPIRY_WARNING_DAYS (30) days, or already has, is
 * logged at warn once a day (one recurring job, Scheduler.every); and the sweep of received Pix
 * every 10 min (./sweep.ts).
 */
import type { Deps } from "../../deps";
import { listActive } from "./repo";
import { EXPIRY_WARNING_DAYS, warnExpiry } from "./service";
import { PIX_SWEEP_JOB, SWEEP_EVERY_MS, sweepReceivedPix } from "./sweep";

export const CERTIFICATE_CHECK_JOB = "pix_provider.certificate_check";
const DAY_MS = 86_400_000;

/** Logs every connection whose certificate expires within 30 days; returns how many. */
export function checkCertificates(deps: Deps): number {
  const limit = deps.clock.nowMs() + EXPIRY_WARNING_DAYS * DAY_MS;
  const expiring = listActive(deps.db).filter((row) => row.certificateExpiresAt < limit);
  for (const row of expiring) warnExpiry(deps, row);
  return expiring.length;
}

export function registerPixProviderJobs(deps: Deps): void {
  deps.jobs.every(CERTIFICATE_CHECK_JOB, DAY_MS, () => checkCertificates(deps));
  deps.jobs.every(PIX_SWEEP_JOB, SWEEP_EVERY_MS, () => sweepReceivedPix(deps));
}
