/**
 * Recurring jobs of the reconciliation group (durable rows, Scheduler.every, like the Pix sweep):
 * - `reconciliation.daily` every hour: once São Paulo's clock is past RECONCILE_FROM_HOUR (06:00),
 *   the previous São Paulo day is reconciled for every account with an active connection that has
 *   no stored result of it made after the day ended (a failure is logged; the next hour tries again);
 * - `med.infraction_poll` every 5 minutes (./infractions.ts).
 */
import type { Deps } from "../deps";
import { addDays, endOfSaoPauloDay, saoPauloDate, startOfSaoPauloDay } from "../../lib/calendar";
import { INFRACTION_POLL_EVERY_MS, INFRACTION_POLL_JOB, pollInfractions } from "./infractions";
import { reconcileAccountDay } from "./service";

export const RECONCILE_JOB = "reconciliation.daily";
/** Period of the morning check, ms (1 h). */
export const RECONCILE_EVERY_MS = 3_600_000;
/** São Paulo hour from which the previous day is reconciled (the PSP's lists are complete by then). */
export const RECONCILE_FROM_HOUR = 6;

export interface MorningResult {
  /** The day reconciled, or null before RECONCILE_FROM_HOUR. */
  date: string | null;
  reconciled: number;
  failed: number;
}

/** The morning run at the clock's now (see the module header). */
export async function reconcileYesterday(deps: Deps): Promise<MorningResult> {
  const now = deps.clock.nowMs();
  const today = saoPauloDate(now);
  if (now - startOfSaoPauloDay(today) < RECONCILE_FROM_HOUR * 3_600_000)
    return { date: null, reconciled: 0, failed: 0 };
  const date = addDays(today, -1);
  const out: MorningResult = { date, reconciled: 0, failed: 0 };
  const accounts = new Set((await deps.store.read.pixProvider.listActive()).map((c) => c.accountId));
  for (const accountId of accounts) {
    // A day stored while it was still running (a merchant's GET during the day) is done again.
    const stored = await deps.store.read.reconciliation.result(accountId, date);
    if (stored && stored.updatedAt > endOfSaoPauloDay(date)) continue;
    try {
      const r = await reconcileAccountDay(deps, accountId, date);
      out.reconciled++;
      if (r.status === "mismatched")
        deps.logger.warn(
          { account_id: accountId, date, differences: r.differences.length },
          "reconciliation: the day does not match the PSP",
        );
    } catch (err) {
      out.failed++;
      deps.logger.warn(
        { account_id: accountId, date, reason: (err as Error).message },
        "reconciliation: the day could not be reconciled",
      );
    }
  }
  return out;
}

export function registerReconciliationJobs(deps: Deps): void {
  // Idle without an active Pix connection: a clock advance skips their empty periods (Scheduler.deferRecurring).
  const idle = async () => (await deps.store.read.pixProvider.listActive()).length === 0;
  deps.jobs.every(RECONCILE_JOB, RECONCILE_EVERY_MS, () => reconcileYesterday(deps), { idle });
  deps.jobs.every(INFRACTION_POLL_JOB, INFRACTION_POLL_EVERY_MS, () => pollInfractions(deps), { idle });
}
