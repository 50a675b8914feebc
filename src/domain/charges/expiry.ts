/**
 * Durable expiry of Pix charges: a `charge.expire` job is queued with the charge (due at
 * `pix.expires_at`, dedupe key per transaction) and cancelled when the charge leaves `pending`.
 * When it runs, the charge becomes `expired` through the settlement notice path.
 */
import type { DbOrTx } from "../../db/client";
import type { Deps } from "../../deps";
import { applySettlementNotice } from "./settlement";

export const CHARGE_EXPIRE_JOB = "charge.expire";

/** Dedupe key of a transaction's expiry job. */
export function expiryKey(transactionId: string): string {
  return `${CHARGE_EXPIRE_JOB}:${transactionId}`;
}

/** Queues the expiry of `transactionId` at `dueAtMs` with the caller's transaction. */
export function scheduleExpiry(deps: Deps, t: DbOrTx, transactionId: string, dueAtMs: number): void {
  deps.jobs.enqueue(t, { kind: CHARGE_EXPIRE_JOB, dueAt: dueAtMs, dedupeKey: expiryKey(transactionId), payload: { transactionId } });
}

/** Drops the pending expiry of `transactionId` (it was paid, refused, held...). */
export function cancelExpiry(deps: Deps, t: DbOrTx, transactionId: string): void {
  deps.jobs.cancel(t, expiryKey(transactionId));
}

/** Registers the `charge.expire` handler (called from src/jobs/registry.ts). */
export function registerChargeJobs(deps: Deps): void {
  deps.jobs.register(CHARGE_EXPIRE_JOB, (job) => {
    const { transactionId } = job.payload as { transactionId: string };
    applySettlementNotice(deps, { transactionId, kind: "expired" });
  });
}
