/**
 * Durable progress of refunds: job `refund.advance` (payload `{refundId}`, queued with the refund
 * at the time its provider's plan asked) drives the refund with its provider, outside any
 * transaction: a PENDING refund is submitted (`refund`, idempotent per refund id), an
 * IN_PROGRESS one queried (`refundStatus`), through the provider of the charge's own connection
 * (`forTransaction`). The outcome is recorded through `applyRefundStatus`
 * in a short unit of work: settled -> REFUNDED, pending -> PENDING / IN_PROGRESS and run again at
 * its `checkAt`, rejected -> FAILED (`failure_reason` = code and text); retryable and auth failures
 * (logged at warn) run again later.
 * Sandbox: PENDING -> IN_PROGRESS -> REFUNDED, 2 s apart (src/providers/sandbox/refunds.ts).
 */
import type { Deps } from "../deps";
import type { JobOutcome, JobRow } from "../jobs";
import type { RefundOutcome } from "../providers/types";
import type { Uow } from "../../store/port";
import type { PaymentMethod } from "../charges/model";
import { canMove, isFinal, REFUND_ADVANCE_JOB, type RefundStatus } from "./model";
import { applyRefundStatus } from "./service";

/** A provider call that failed without an answer is tried again this much later, ms. */
const RETRY_MS = 30_000;

/** The refund status an outcome amounts to, or null when it says nothing new (a failure to retry). */
export function refundStatusOf(o: RefundOutcome): RefundStatus | null {
  if (o.status === "settled") return "REFUNDED";
  if (o.status === "pending") return o.inProgress ? "IN_PROGRESS" : "PENDING";
  if (o.status === "rejected") return "FAILED";
  return null;
}

/**
 * A rejection as the stored `failure_reason`: the provider's code and its text (e.g. a PSP's `motivo`), at most 300
 * characters.
 */
function failureReasonOf(o: { code: string; message: string }): string {
  const text = o.message ? `${o.code}: ${o.message}` : o.code;
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/** One step of refund `refundId` with its provider (see the module header). */
export async function advanceRefund(deps: Deps, refundId: string, job?: Pick<JobRow, "finish">): Promise<JobOutcome> {
  const refund = await deps.store.read.refunds.byId(refundId);
  if (!refund || isFinal(refund.status as RefundStatus)) return;
  const transaction = await deps.store.read.charges.byId(refund.transactionId);
  // The connection that created the charge, even deleted or replaced since.
  const provider = transaction && deps.providers.forTransaction(transaction, refund.method as PaymentMethod);
  if (!transaction || !provider) return;
  const req = { refund, transaction };
  const o =
    refund.status === "PENDING"
      ? await provider.refund(deps.providers.ctx, req)
      : await provider.refundStatus(deps.providers.ctx, req);
  // Test-only (COFRE_TEST_CRASH_AFTER_PSP_SEND=1): die between a cashout's send and our commit.
  if (
    deps.config.testCrashAfterPspSend &&
    refund.status === "PENDING" &&
    refund.strategy === "cashout" &&
    transaction.livemode
  )
    process.kill(process.pid, "SIGKILL");
  const to = refundStatusOf(o);
  if (to === null) {
    if (o.status === "auth_failed")
      deps.logger.warn(
        { refundId, code: o.code, reason: o.message },
        "refund: the provider refused our credentials; retrying later",
      );
    return {
      retryAt: (o.status !== "settled" && o.status !== "pending" && o.retryAt) || deps.clock.nowMs() + RETRY_MS,
    };
  }
  return deps.store.tx(async (uow) => {
    const now = await uow.refunds.byId(refundId);
    let outcome: JobOutcome | undefined;
    // Moved meanwhile (test helper, a notification): the status it reached wins.
    if (now && now.status === refund.status) {
      if (to !== now.status && canMove(now.status as RefundStatus, to))
        await applyRefundStatus(deps, uow, refundId, to, o.status === "rejected" ? failureReasonOf(o) : undefined);
      if (o.status === "pending") outcome = { retryAt: o.checkAt ?? deps.clock.nowMs() + RETRY_MS };
    }
    // The step and the job's next run (or end) commit together (JobRow.finish).
    await job?.finish?.(uow, outcome);
    return outcome;
  });
}

/**
 * Inside `uow`: a notification says refunds of transaction `row` whose provider ids are `providerIds`
 * moved (a Pix callback's `devolucoes[].id`): each such refund not final gets its status checked
 * now by its job (never from the notification's body). Returns how many were asked. Ids of no
 * refund of the transaction (a forged hint, a return of pix-returns.ts) are ignored here.
 */
export async function hintRefunds(
  deps: Deps,
  uow: Uow,
  row: { id: string },
  providerIds: readonly string[],
  now: number,
): Promise<number> {
  const ids = new Set(providerIds);
  let asked = 0;
  for (const r of await uow.refunds.listForTransaction(row.id)) {
    if (!r.providerRefundId || !ids.has(r.providerRefundId) || isFinal(r.status as RefundStatus)) continue;
    await deps.jobs.enqueueNoLaterThan(uow, {
      kind: REFUND_ADVANCE_JOB,
      payload: { refundId: r.id },
      dueAt: now,
      dedupeKey: `${REFUND_ADVANCE_JOB}:${r.id}`,
    });
    asked++;
  }
  return asked;
}

/**
 * Inside `uow`: a notification says Pix SENT by (account, mode) moved (an Efí callback's
 * `gnExtras.idEnvio`, a provider's `sendIds`): the cashout refunds among them (a cashout refund's
 * send id is its `providerRefundId`, the refund id without `re_`) that are not final get their
 * status checked now by their job (never from the notification's body). Returns how many were
 * asked; ids of no cashout refund of the scope (payouts, forged hints) are ignored here.
 */
export async function hintRefundSends(
  deps: Deps,
  uow: Uow,
  scope: { accountId: string; livemode: boolean },
  sendIds: readonly string[],
  now: number,
): Promise<number> {
  let asked = 0;
  for (const sendId of new Set(sendIds)) {
    const r = await uow.refunds.byId(`re_${sendId}`);
    if (
      !r ||
      r.accountId !== scope.accountId ||
      r.livemode !== scope.livemode ||
      r.strategy !== "cashout" ||
      r.providerRefundId !== sendId
    )
      continue;
    if (isFinal(r.status as RefundStatus)) continue;
    await deps.jobs.enqueueNoLaterThan(uow, {
      kind: REFUND_ADVANCE_JOB,
      payload: { refundId: r.id },
      dueAt: now,
      dedupeKey: `${REFUND_ADVANCE_JOB}:${r.id}`,
    });
    asked++;
  }
  return asked;
}

/** Registers the payments group's jobs: refund progress (called from src/jobs/registry.ts). */
export function registerPaymentJobs(deps: Deps): void {
  deps.jobs.register(REFUND_ADVANCE_JOB, (job) =>
    advanceRefund(deps, (job.payload as { refundId: string }).refundId, job),
  );
}
