/**
 * Recovery of live create intents (issue 14 §3: "a crash in between leaves an intent that a
 * recovery job resolves with `GET /cob/{txid}`"; state machine in ./intents.ts). A recurring job
 * (every RECOVERY_EVERY_MS, and at once on a start that finds open intents) takes the intents older than
 * RECOVERY_GRACE_MS (no request is still working on them) and asks the PSP, never creating:
 * found -> the charge is committed exactly as the first request would have (same id, txid, row,
 * events, first status check; the idempotency record gets the 201 body, so a retry replays it);
 * removed -> committed `failed`; unknown to the PSP -> the intent is dropped; PSP unreachable ->
 * kept for the next run.
 */
import type { Deps } from "../deps";
import type { PaymentMethod } from "./model";
import { commitCreate, DEFAULT_MERCHANT_CITY, type CreateCheck } from "./create";
import { dropIntent, hasOpenIntents, listStaleIntents, renderIntentView, type OpenIntent } from "./intents";

export const INTENT_RECOVERY_JOB = "charges.intent_recovery";
/** Age (ms) after which an open intent is no longer a request in flight: 2 min. */
export const RECOVERY_GRACE_MS = 120_000;
/** Period of the recovery job, ms (1 min). */
export const RECOVERY_EVERY_MS = 60_000;
/** Intents resolved per run at most (the next run takes the rest). */
const BATCH = 100;

export interface RecoveryResult {
  /** Intents whose charge was committed (pending, or `failed` when the PSP removed the cob). */
  finalised: number;
  /** Intents whose cob the PSP never created. */
  dropped: number;
  /** Intents left for a later run (PSP unreachable, connection unknown). */
  kept: number;
}

/** One recovery pass at the clock's now; a failing intent does not stop the others. */
export async function recoverIntents(deps: Deps): Promise<RecoveryResult> {
  const result: RecoveryResult = { finalised: 0, dropped: 0, kept: 0 };
  for (const intent of await listStaleIntents(deps, deps.clock.nowMs() - RECOVERY_GRACE_MS, BATCH)) {
    try {
      result[await recoverOne(deps, intent)]++;
    } catch (err) {
      deps.logger.warn({ intent_id: intent.id, reason: (err as Error).message }, "create intent: recovery failed");
      result.kept++;
    }
  }
  return result;
}

async function recoverOne(deps: Deps, intent: OpenIntent): Promise<keyof RecoveryResult> {
  const provider = deps.providers.forConnection(intent.connectionId);
  const account = await deps.store.read.charges.accountForCreate(intent.record.accountId);
  if (!provider || !account) return "kept";
  const row = { ...intent.row };
  const methods = JSON.parse(row.paymentMethods) as PaymentMethod[];
  const out = await provider.create(deps.providers.ctx, {
    transaction: row,
    methods,
    settings: account.settings,
    merchant: { name: account.name, city: DEFAULT_MERCHANT_CITY },
    reservation: { txid: intent.txid, connectionId: intent.connectionId, resumed: true, lookupOnly: true },
  });
  if (out.status === "absent") {
    await deps.store.tx((uow) => dropIntent(uow, intent.id));
    deps.logger.info(
      { intent_id: intent.id, txid: intent.txid },
      "create intent: the PSP never created the cob; dropped",
    );
    return "dropped";
  }
  if (out.status !== "pending" && out.status !== "rejected") {
    deps.logger.warn(
      { intent_id: intent.id, code: out.code, reason: out.message },
      "create intent: the PSP could not be asked; kept",
    );
    return "kept";
  }
  const checks: CreateCheck[] = [];
  if (out.status === "pending") {
    if (out.columns) Object.assign(row, out.columns);
    if (out.checkAt !== undefined)
      checks.push({ method: methods[0]!, at: out.checkAt, ...(out.memo ? { memo: out.memo } : {}) });
  }
  const idem = {
    claim: deps.idempotency.claimOf(intent.record),
    status: 201,
    render: (r: typeof row) => renderIntentView(deps, intent.view, r),
  };
  await commitCreate(deps, row, out.status === "rejected" ? out : null, checks, idem, {
    intentId: intent.id,
    onlyOpenIntent: true,
  });
  deps.logger.info({ intent_id: intent.id, txid: intent.txid, transaction_id: row.id }, "create intent: recovered");
  return "finalised";
}

/**
 * The recurring recovery job; due at once on a start that finds open intents (a crash left them
 * behind). The job is registered at once; the returned promise settles once that startup check
 * (one read, a unit of work when intents are open) is done (a failure is logged).
 */
export function registerIntentJobs(deps: Deps): Promise<void> {
  // Idle without open intents: a clock advance skips its empty minutes (Scheduler.deferRecurring).
  deps.jobs.every(INTENT_RECOVERY_JOB, RECOVERY_EVERY_MS, () => recoverIntents(deps), {
    idle: async () => !(await hasOpenIntents(deps)),
  });
  return recoverAtStart(deps).catch((err) =>
    deps.logger.error(
      { err: err instanceof Error ? err.message : String(err) },
      "create intent: scheduling the recovery at start failed",
    ),
  );
}

/** Makes the recovery due now when an intent is open (startup). */
async function recoverAtStart(deps: Deps): Promise<void> {
  if (!(await hasOpenIntents(deps))) return;
  const dueAt = deps.clock.nowMs();
  await deps.store.tx(async (uow) => {
    await deps.jobs.enqueueNoLaterThan(uow, { kind: INTENT_RECOVERY_JOB, dedupeKey: INTENT_RECOVERY_JOB, dueAt });
  });
}
