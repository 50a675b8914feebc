/**
 * Pending tranches: the net of each paid charge waits in `pending` until its release time
 * (`settlement_delay_seconds` after payment), then the durable job `ledger.release_tranche`
 * moves what is left of it to `available`.
 */
import { and, eq, isNull } from "drizzle-orm";
import { ledgerTranches } from "../../../db/schema";
import type { DbOrTx, Tx } from "../../db/client";
import { tx } from "../../db/client";
import type { Deps } from "../../deps";
import { postEntry } from "./post";

/** Job kind of a tranche release; payload `{trancheId}`, dedupe key `ledger.release:<trancheId>`. */
export const LEDGER_RELEASE_JOB = "ledger.release_tranche";

export type TrancheRow = typeof ledgerTranches.$inferSelect;

/** The tranche of one paid transaction (any state), or undefined. */
export function findTrancheByTransaction(db: DbOrTx, accountId: string, livemode: boolean, transactionId: string): TrancheRow | undefined {
  return db
    .select()
    .from(ledgerTranches)
    .where(and(eq(ledgerTranches.accountId, accountId), eq(ledgerTranches.livemode, livemode), eq(ledgerTranches.transactionId, transactionId)))
    .get();
}

/** One tranche by id. */
export function findTranche(db: DbOrTx, trancheId: string): TrancheRow | undefined {
  return db.select().from(ledgerTranches).where(eq(ledgerTranches.id, trancheId)).get();
}

/** Changes the unreleased remainder of a tranche by `delta` (minor units; negative draws from it). */
export function adjustTrancheRemaining(t: Tx, tranche: TrancheRow, delta: number): void {
  const remaining = tranche.remaining + delta;
  if (remaining < 0 || tranche.releasedAt !== null) throw new Error(`tranche ${tranche.id} cannot change by ${delta}`);
  t.update(ledgerTranches)
    .set({ remaining })
    .where(and(eq(ledgerTranches.id, tranche.id), isNull(ledgerTranches.releasedAt)))
    .run();
}

/**
 * Moves what remains of the tranche from `pending` to `available` and marks it released.
 * No-op when already released or unknown. Posting key `tranche_release:<trancheId>`.
 */
export function releaseTranche(deps: Deps, t: Tx, trancheId: string): void {
  const tr = findTranche(t, trancheId);
  if (!tr || tr.releasedAt !== null) return;
  const now = deps.clock.nowMs();
  if (tr.remaining > 0) {
    postEntry(t, {
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
  t.update(ledgerTranches).set({ remaining: 0, releasedAt: now }).where(eq(ledgerTranches.id, tr.id)).run();
}

/** Queues the release job of a tranche at its release time (durable, deduplicated per tranche). */
export function scheduleRelease(deps: Deps, t: Tx, tranche: Pick<TrancheRow, "id" | "releaseAt">): void {
  deps.jobs.enqueue(t, { kind: LEDGER_RELEASE_JOB, payload: { trancheId: tranche.id }, dueAt: tranche.releaseAt, dedupeKey: `ledger.release:${tranche.id}` });
}

/** Registers the release handler with the scheduler (called from src/jobs/registry.ts). */
export function registerLedgerJobs(deps: Deps): void {
  deps.jobs.register(LEDGER_RELEASE_JOB, (job) => {
    const { trancheId } = job.payload as { trancheId: string };
    const tr = findTranche(deps.db, trancheId);
    if (tr && tr.releasedAt === null && tr.releaseAt > deps.clock.nowMs()) return { retryAt: tr.releaseAt };
    tx(deps.db, (t) => releaseTranche(deps, t, trancheId));
  });
}
