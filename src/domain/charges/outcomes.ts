/**
 * Provider payment outcomes (src/domain/providers/types.ts PaymentOutcome) -> settlement notices, applied
 * through THE one path `applySettlementNotice`; and the durable status check (`charge.status_check`)
 * that queries a provider again when an outcome said "pending, check again at T" (sandbox 3DS,
 * live PSP polls and the confirmation of their callbacks and sweeps).
 * Live Pix rule (settlement.ts header): a confirmed Pix of another amount concludes the cob at the
 * PSP, which then takes no further payment, so the check that confirms it also ends the charge
 * (REFUSED, `metadata.failure.reason` `amount_mismatch`) while the Pix goes back; polling stops
 * there. A Pix later named on a charge already over (EXPIRED, CANCELLED, REFUSED) is checked once
 * and returned.
 */
import type { Deps } from "../deps";
import type { PaymentOutcome, ProviderMemo, TransactionRow } from "../providers/types";
import type { JobOutcome } from "../jobs";
import { IN_FLIGHT, isIn, OVER, type PaymentMethod } from "./model";
import { isPixReturnQueued } from "./pix-returns";
import {
  applySettlementNotice,
  applySettlementNoticeIn,
  type SettlementNotice,
  type SettlementResult,
} from "./settlement";
import type { Uow } from "../../store/port";

/**
 * Job kind of a provider status query; payload `{transactionId, method, memo?}`, dedupe `charge.status_check:<id>`
 * (PIX) or `charge.status_check:<id>:<METHOD>`.
 */
export const CHARGE_STATUS_CHECK_JOB = "charge.status_check";
/** 3DS completions queued before the status check existed (payload `{transactionId, approve}`). */
export const LEGACY_CARD_3DS_JOB = "payments.card_3ds";
/** A status query that failed (retryable, auth) is tried again this much later, ms. */
const QUERY_RETRY_MS = 30_000;
/**
 * Statuses a status check can still change (runStatusCheck; notifications queue checks only for these): IN_FLIGHT
 * (model.ts).
 */
export const CHECKABLE: ReadonlySet<string> = new Set(IN_FLIGHT);
/** The warn line of a Pix that arrived on a charge already over, by the charge's status then. */
const LATE_LOG: Readonly<Record<string, string>> = {
  CANCELLED: "payment arrived after the charge was cancelled: not credited",
  REFUSED: "payment arrived after the charge failed: not credited",
};

/**
 * True when a hint naming Pix `endToEndId` about `row` is worth a status check: the charge still
 * waits, or it is a live charge already over (EXPIRED, CANCELLED, REFUSED) and that Pix is neither its own
 * nor already being returned (a truly late Pix, returned once: pix-returns.ts).
 */
export function needsCheck(row: TransactionRow, endToEndId?: string): boolean {
  if (CHECKABLE.has(row.status)) return true;
  return (
    !!endToEndId &&
    !!row.providerConnectionId &&
    isIn(OVER, row.status) &&
    row.endToEndId !== endToEndId &&
    !isPixReturnQueued(row, endToEndId)
  );
}

/**
 * The settlement notice an outcome about `method` of `row` amounts to, or null when it changes
 * nothing (pending and not in flight, or a failure that is not a refusal).
 * settled -> paid; pending + processing -> processing; expired -> expired; rejected -> declined
 * (`reason` default `declined`, `providerErrorCode` the provider's code).
 */
export function noticeOf(row: TransactionRow, method: PaymentMethod, o: PaymentOutcome): SettlementNotice | null {
  switch (o.status) {
    case "settled":
      return {
        transactionId: row.id,
        kind: "paid",
        method: o.method,
        amount: o.amount,
        ...(o.endToEndId ? { endToEndId: o.endToEndId } : {}),
        ...(o.payerTaxId !== undefined ? { payerTaxId: o.payerTaxId } : {}),
        ...(o.payerName !== undefined ? { payerName: o.payerName } : {}),
        ...(o.disclosed !== undefined ? { disclosed: o.disclosed } : {}),
        ...(o.paidAt !== undefined ? { paidAt: o.paidAt } : {}),
        ...(o.details ? { details: o.details } : {}),
      };
    case "pending":
      return o.processing ? { transactionId: row.id, kind: "processing", method } : null;
    case "expired":
      return { transactionId: row.id, kind: "expired" };
    case "rejected":
      return {
        transactionId: row.id,
        kind: "declined",
        method: o.method ?? method,
        reason: o.reason ?? "declined",
        providerErrorCode: o.code,
      };
    default:
      return null;
  }
}

/**
 * Records outcome `o` about `method` of `row` inside `uow`: applies its notice, and queues the
 * status check the outcome asked for (`pending` with `checkAt`) in the same unit of work, so a
 * payment in flight is never left with nothing to complete it. Returns the settlement result,
 * or `{outcome: "ignored", row}` when nothing changed.
 */
export async function recordPaymentOutcomeIn(
  deps: Deps,
  uow: Uow,
  row: TransactionRow,
  method: PaymentMethod,
  o: PaymentOutcome,
): Promise<SettlementResult> {
  const notice = noticeOf(row, method, o);
  const result = notice ? await applySettlementNoticeIn(deps, uow, notice) : { outcome: "ignored" as const, row };
  if (o.status === "pending" && o.checkAt !== undefined && (!notice || result.outcome !== "ignored"))
    await scheduleStatusCheck(deps, uow, row.id, method, o.checkAt, o.memo);
  return result;
}

/** recordPaymentOutcomeIn in its own unit of work. */
export function recordPaymentOutcome(
  deps: Deps,
  row: TransactionRow,
  method: PaymentMethod,
  o: PaymentOutcome,
): Promise<SettlementResult> {
  return deps.store.tx((uow) => recordPaymentOutcomeIn(deps, uow, row, method, o));
}

/**
 * Makes sure a provider status query of transaction `transactionId` runs no later than `atMs`
 * inside `uow` (one job per transaction: an earlier ask pulls a queued check earlier and keeps its memo;
 * `perPix`: one job per transaction and named Pix, for a late Pix on a charge already over).
 */
export async function scheduleStatusCheck(
  deps: Deps,
  uow: Uow,
  transactionId: string,
  method: PaymentMethod,
  atMs: number,
  memo?: ProviderMemo,
  perPix = false,
): Promise<void> {
  await deps.jobs.enqueueNoLaterThan(uow, {
    kind: CHARGE_STATUS_CHECK_JOB,
    payload: { transactionId, method, ...(memo ? { memo } : {}) },
    dueAt: atMs,
    // A late Pix's check is its own job: the one of the charge keeps its memo, and this one needs its Pix.
    // A method other than PIX has its own job: a live transaction offering PIX and CREDIT_CARD is
    // served by two providers (registry.ts forTransaction), each polled for its own method.
    dedupeKey:
      perPix && typeof memo?.endToEndId === "string"
        ? `${CHARGE_STATUS_CHECK_JOB}:${transactionId}:${memo.endToEndId}`
        : method === "PIX"
          ? `${CHARGE_STATUS_CHECK_JOB}:${transactionId}`
          : `${CHARGE_STATUS_CHECK_JOB}:${transactionId}:${method}`,
  });
}

/**
 * Runs one status query: asks the transaction's provider (outside any transaction), records the
 * outcome; "pending, check at T" runs again at T with the same memo, a retryable failure 30 s
 * later (or when the provider said). A transaction that no longer waits is left alone.
 */
export async function runStatusCheck(
  deps: Deps,
  transactionId: string,
  method: PaymentMethod,
  memo?: ProviderMemo,
): Promise<JobOutcome> {
  const row = await deps.store.read.charges.byId(transactionId);
  const named = typeof memo?.endToEndId === "string" ? memo.endToEndId : undefined;
  if (row?.livemode && row.status === "EXPIRED" && method !== "PIX") return withdrawOffer(deps, row, method);
  if (!row || !needsCheck(row, named)) return;
  // The connection that created a live charge answers for it, even deleted or replaced since.
  const provider = deps.providers.forTransaction(row, method);
  if (!provider) return;
  const o = await provider.queryStatus(deps.providers.ctx, { transaction: row, memo });
  if (o.status === "retryable" || o.status === "auth_failed")
    return { retryAt: o.retryAt ?? deps.clock.nowMs() + QUERY_RETRY_MS };
  const notice = noticeOf(row, method, o);
  const result = notice ? await applySettlementNotice(deps, notice) : null;
  // A payment made after expires_at (or on a charge already over) is refused: it goes back (pix-returns.ts).
  if (
    o.status === "settled" &&
    (result?.outcome === "expired" || (result?.outcome === "returned" && !CHECKABLE.has(row.status)))
  )
    deps.logger.warn(
      { transactionId: row.id, endToEndId: o.endToEndId ?? null, amount: o.amount },
      LATE_LOG[row.status] ?? "payment arrived after the charge expired: not credited",
    );
  if (o.status === "pending" && o.checkAt !== undefined) return { retryAt: o.checkAt };
}

/**
 * A live transaction offering a method of another provider expired through that provider (a Pix
 * window shorter than Stripe's shortest Checkout Session): this method's provider withdraws its
 * offer (`cancel`: the card session is expired), so nobody pays a transaction that is over. A
 * failure to reach it runs again later.
 */
async function withdrawOffer(deps: Deps, row: TransactionRow, method: PaymentMethod): Promise<JobOutcome> {
  const provider = deps.providers.forTransaction(row, method);
  if (!provider) return;
  const out = await provider.cancel(deps.providers.ctx, { transaction: row });
  if (out.status === "retryable" || out.status === "auth_failed")
    return { retryAt: out.retryAt ?? deps.clock.nowMs() + QUERY_RETRY_MS };
  if (out.status === "rejected")
    deps.logger.warn(
      { transactionId: row.id, method, code: out.code, reason: out.message },
      "payment provider: an expired transaction's offer could not be withdrawn",
    );
}

/** Registers the status check and the legacy 3DS completion (called from registerChargeJobs). */
export function registerStatusCheckJobs(deps: Deps): void {
  deps.jobs.register(CHARGE_STATUS_CHECK_JOB, (job) => {
    const { transactionId, method, memo } = job.payload as {
      transactionId: string;
      method: PaymentMethod;
      memo?: ProviderMemo;
    };
    return runStatusCheck(deps, transactionId, method, memo);
  });
  deps.jobs.register(LEGACY_CARD_3DS_JOB, (job) => {
    const { transactionId, approve } = job.payload as { transactionId: string; approve: boolean };
    return runStatusCheck(deps, transactionId, "CREDIT_CARD", { threeDs: approve ? "approve" : "decline" });
  });
}
