/**
 * Pending tranches: the net of each paid charge waits in `pending` until its release time
 * (`settlement_delay_seconds` after payment), then the durable job `ledger.release_tranche`
 * moves what is left of it to `available`.
 */
import type { Deps } from "../deps";
import type { JobOutcome } from "../jobs";
import type { LedgerTrancheRow } from "../../store/rows";
import type { Uow } from "../../store/port";
import { postEntry } from "./post";

/** Job kind of a tranche release; payload `{trancheId}`, dedupe key `ledger.release:<trancheId>`. */
export const LEDGER_RELEASE_JOB = "ledger.release_tranche";

export type TrancheRow = LedgerTrancheRow;

/**
 * Changes the unreleased remainder of a tranche by `delta` (minor units; negative draws from it).
 * Throws when the remainder would go below zero or the tranche is already released.
 */
export async function adjustTrancheRemaining(uow: Uow, tranche: TrancheRow, delta: number): Promise<void> {
  const remaining = tranche.remaining + delta;
  if (remaining < 0 || tranche.releasedAt !== null) throw new Error(`tranche ${tranche.id} cannot change by ${delta}`);
  await uow.ledger.setTrancheRemaining(tranche.id, remaining);
}

/**
 * Moves what remains of the tranche from `pending` to `available` and marks it released.
 * No-op when already released or unknown. Posting key `tranche_release:<trancheId>`.
 */
export async function releaseTranche(deps: Deps, uow: Uow, trancheId: string): Promise<void> {
  const tr = await uow.ledger.tranche(trancheId);
  if (tr) await releaseRow(deps, uow, tr);
}

/**
 * `releaseTranche` of the tranche `tr` read (locked) in `uow`. The posting comes last: its debit
 * of `pending` takes the merchant's debit lock (PostgreSQL, src/store/pg/ledger.ts), which every
 * release of the merchant waits for, so the unit holds it for the posting and COMMIT only.
 */
async function releaseRow(deps: Deps, uow: Uow, tr: TrancheRow): Promise<void> {
  if (tr.releasedAt !== null) return;
  const now = deps.clock.nowMs();
  await uow.ledger.markTrancheReleased(tr.id, now);
  if (tr.remaining > 0) {
    await postEntry(uow, {
      accountId: tr.accountId,
      livemode: tr.livemode,
      currency: tr.currency,
      kind: "tranche_release",
      causeKind: "tranche",
      causeId: tr.id,
      idempotencyKey: `tranche_release:${tr.id}`,
      lines: [
        { ledgerAccount: "pending", amount: -tr.remaining, trancheId: tr.id },
        { ledgerAccount: "available", amount: tr.remaining },
      ],
      now,
    });
  }
}

/** Queues the release job of a tranche at its release time (durable, deduplicated per tranche). */
export async function scheduleRelease(
  deps: Deps,
  uow: Uow,
  tranche: Pick<TrancheRow, "id" | "releaseAt">,
): Promise<void> {
  await deps.jobs.enqueue(uow, {
    kind: LEDGER_RELEASE_JOB,
    payload: { trancheId: tranche.id },
    dueAt: tranche.releaseAt,
    dedupeKey: `ledger.release:${tranche.id}`,
  });
}

/** Registers the release handler with the scheduler (called from src/jobs/registry.ts). */
export function registerLedgerJobs(deps: Deps): void {
  deps.jobs.register(LEDGER_RELEASE_JOB, (job) => {
    const { trancheId } = job.payload as { trancheId: string };
    // One unit: the tranche (read locked), the job's end or its run at the release time when it
    // ran early (JobRow.finish: they commit together), then the release, whose posting holds the
    // merchant's debit lock (releaseRow) and so comes last.
    return deps.store.tx(async (uow) => {
      const tr = await uow.ledger.tranche(trancheId);
      const early = tr !== undefined && tr.releasedAt === null && tr.releaseAt > deps.clock.nowMs();
      const outcome: JobOutcome = early ? { retryAt: tr.releaseAt } : undefined;
      await job.finish?.(uow, outcome);
      if (tr && !early) await releaseRow(deps, uow, tr);
      return outcome;
    });
  });
}
