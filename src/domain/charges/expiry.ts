/**
 * Durable expiry of Pix charges by ONE sweep job (`charge.expire_due`, fixed dedupe key) instead
 * of one job per charge. Why: a per-charge job cost every create an insert into `jobs` (row,
 * primary key, dedupe and due-time indexes, JSON payload) and every payment or cancel a delete,
 * ~15-20 us of a ~200 us create on the `POST /v1/pix/charges` hot path. Now a create only makes
 * sure the sweep is due no later than its `expires_at` (one prepared upsert that writes nothing
 * when the sweep is already due earlier, the usual case), and a charge that leaves the waiting
 * statuses drops out of the partial index `tx_waiting_expiry_idx` (db/schema/charges.ts) by
 * itself, so nothing has to be cancelled.
 *
 * The sweep takes the waiting charges with `expires_at <= now` through that index (one range
 * read), oldest first, at most SWEEP_BATCH per run, expires each through applySettlementNotice
 * (`expired` with `metadata.failure`, events, as before), then reschedules itself: now when the
 * batch was full, else at the next waiting `expires_at`; with no waiting charge left the job row
 * is deleted (the next create inserts it again: one row write per idle period, and no timer
 * firing for nothing; parking it far ahead would save that one insert but leave a row whose
 * meaning is "nothing to do").
 * A charge created while the sweep runs is covered by Scheduler.enqueueNoLaterThan, which
 * never lets the running sweep's outcome postpone the time asked for.
 * Crash safety: the sweep row commits with the charge that needs it; a sweep that died mid-run
 * is leased and runs again when its lease ends. Upgrades: old per-charge `charge.expire` jobs
 * still run (harmlessly: a charge already swept is ignored), and registration schedules the
 * sweep at the earliest waiting `expires_at`, so waiting charges of an older database expire.
 */
import type { Deps } from "../deps";
import type { JobOutcome } from "../jobs";
import type { Uow } from "../../store/port";
import { registerStatusCheckJobs } from "./outcomes";
import { applySettlementNotice } from "./settlement";
import { registerPixReturnJobs } from "./pix-returns";

/** The sweep job kind; its one row has the dedupe key SWEEP_DEDUPE_KEY. */
export const CHARGE_EXPIRE_DUE_JOB = "charge.expire_due";
export const SWEEP_DEDUPE_KEY = CHARGE_EXPIRE_DUE_JOB;
/** Per-charge expiry jobs of databases created before the sweep (payload `{transactionId}`). */
export const LEGACY_CHARGE_EXPIRE_JOB = "charge.expire";
/**
 * Charges expired per sweep run, at most. An expiry (settlement notice, status change, events)
 * measured ~0.5 ms, so a run takes ~15 ms at most, about what the scheduler's 32 concurrent
 * per-charge jobs took per turn before. A backlog (a restart after downtime) is worked off in
 * back-to-back runs, with requests served between them.
 */
export const SWEEP_BATCH = 32;
/** A charge whose expiry threw is tried again this much later (ms); the others are not held back. */
const FAILED_RETRY_MS = 5_000;

/**
 * Makes sure the expiry sweep runs no later than `expiresAtMs` (epoch ms), inside the caller's
 * unit of work `uow` (the create's: the sweep row commits with the charge). Create hot path: one
 * prepared statement, usually no write.
 */
export function ensureExpirySweep(deps: Deps, uow: Uow, expiresAtMs: number): Promise<void> {
  // Returned, not awaited here: one await fewer on the create hot path (the caller awaits).
  return deps.jobs.enqueueNoLaterThan(uow, {
    kind: CHARGE_EXPIRE_DUE_JOB,
    dedupeKey: SWEEP_DEDUPE_KEY,
    dueAt: expiresAtMs,
  });
}

/**
 * One sweep run at the clock's now: expires up to SWEEP_BATCH waiting charges whose
 * `expires_at` has passed, each in its own unit of work: a charge whose expiry throws is logged
 * and retried FAILED_RETRY_MS later without undoing the others. Returns when to run next (see the module header), or
 * nothing when no charge waits.
 */
export async function sweepExpiredCharges(deps: Deps): Promise<JobOutcome> {
  const charges = deps.store.read.charges;
  const now = deps.clock.nowMs();
  const due = await charges.dueForExpiry(now, SWEEP_BATCH);
  let failed = 0;
  for (const id of due) {
    try {
      await applySettlementNotice(deps, { transactionId: id, kind: "expired" });
    } catch (err) {
      failed++;
      deps.logger.error(
        { transactionId: id, err: err instanceof Error ? err.message : String(err) },
        "charge expiry failed",
      );
    }
  }
  // More charges may be due behind a full batch: run again at once (a later event-loop turn).
  if (due.length === SWEEP_BATCH && failed < due.length) return { retryAt: now };
  const at = Math.min((await charges.nextExpiryAfter(now)) ?? Infinity, failed > 0 ? now + FAILED_RETRY_MS : Infinity);
  return Number.isFinite(at) ? { retryAt: at } : undefined;
}

/**
 * Registers the sweep, the legacy `charge.expire` handler and the provider status checks
 * (src/domain/charges/outcomes.ts; called from src/jobs/registry.ts), and schedules the sweep at
 * the earliest waiting `expires_at` already stored (a database from before the sweep, or one
 * whose sweep row was lost). The handlers are registered at once; the returned promise settles
 * once that scheduling (one read, one unit of work) is done (a failure is logged).
 */
export function registerChargeJobs(deps: Deps): Promise<void> {
  // The sweep never goes dead: it is the only thing that expires charges.
  deps.jobs.register(CHARGE_EXPIRE_DUE_JOB, () => sweepExpiredCharges(deps), {
    maxAttempts: Number.MAX_SAFE_INTEGER,
    backoff: (n) => Math.min(2 ** n, 60),
  });
  registerStatusCheckJobs(deps);
  registerPixReturnJobs(deps);
  deps.jobs.register(LEGACY_CHARGE_EXPIRE_JOB, async (job) => {
    const { transactionId } = job.payload as { transactionId: string };
    await applySettlementNotice(deps, { transactionId, kind: "expired" });
  });
  return scheduleSweepAtStart(deps).catch((err) =>
    deps.logger.error(
      { err: err instanceof Error ? err.message : String(err) },
      "charge expiry: scheduling the sweep at start failed",
    ),
  );
}

/** Makes the sweep due no later than the earliest waiting `expires_at` stored (startup). */
async function scheduleSweepAtStart(deps: Deps): Promise<void> {
  const first = await deps.store.read.charges.firstExpiry();
  if (first !== null)
    await deps.store.tx(async (uow) => {
      await ensureExpirySweep(deps, uow, first);
    });
}
