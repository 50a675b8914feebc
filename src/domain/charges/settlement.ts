/**
 * THE one path by which provider or bank status reaches a transaction (DESIGN.md): provider
 * outcomes (sandbox payer events, status checks, notifications; src/domain/charges/outcomes.ts
 * maps them to notices) and the expiry sweep. Implements the
 * public charge status table of interface.md:
 * - paid, exact amount -> PAID (cards: APPROVED), end-to-end id, fee, ledger credit, `charge.paid`;
 * - paid, different amount -> returned to the payer, nothing credited; a sandbox charge stays
 *   pending (its BR Code can be paid again). A live Pix (charge created through a connection) is
 *   returned through it (pix-returns.ts) and, Pix being its only method, the charge fails at once
 *   (REFUSED, public `failed`, `charge.failed`, `metadata.failure.reason` `amount_mismatch`):
 *   its cob is CONCLUIDA at the PSP and a concluded cob takes no further payment (BCB API Pix,
 *   `CobStatus`), so waiting would leave an unpayable charge pending for ever. A live Pix paid
 *   at/after `expires_at` or on a charge already over (EXPIRED, CANCELLED, REFUSED) is returned
 *   too (else ignored);
 * - payer lock applied: other payer's document -> REFUNDED (automatic Pix return addressed by the
 *   end-to-end id, not credited); document not disclosed -> PROCESSING (held, not credited);
 * - declined -> REFUSED with `metadata.failure`; processing -> PROCESSING;
 * - expired -> EXPIRED with `metadata.failure {reason, providerErrorCode: null, ttlSeconds, at}`;
 *   a payment made at or after `expires_at` (its `paidAt`, else now) expires the waiting charge
 *   instead (a live Pix paid before expiry but confirmed after it still pays).
 * Notices that do not apply to the current status are ignored (outcome "ignored"), so repeated
 * or late notices are harmless.
 */
import type { Deps } from "../deps";
import { iso } from "../../lib/clock";
import { newDevolutionId, newEndToEndId } from "../../pix/ids";
import { normalizeTaxId } from "../../pix/tax-id";
import type { TransactionRow } from "../providers/types";
import { getAccountSettings, pixFee } from "../accounts/settings";
import { creditChargePayment } from "../ledger/service";
import { emitTransition } from "./events";
import {
  IN_FLIGHT,
  isIn,
  OVER,
  WAITING,
  type PaymentMethod,
  type TransactionStatus,
  type TransactionTrigger,
} from "./model";
import { moveTransaction } from "./transition";
import { failureBlock } from "./metadata";
import { methodDetails, offeredMethods } from "../payments/views";
import { rowMetadata } from "./views";
import { pixReturnOf, queuePixReturnIn } from "./pix-returns";
import { payerBlock } from "../payments/payer";
import type { Uow } from "../../store/port";

export type SettlementNotice =
  | {
      transactionId: string;
      kind: "paid";
      method: PaymentMethod;
      /** Amount the payer paid, minor units. */
      amount: number;
      /** Pix end-to-end id; generated (sandbox ISPB) for Pix when absent. */
      endToEndId?: string;
      /** Payer's document as the bank reported it; null/absent = not disclosed. */
      payerTaxId?: string | null;
      payerName?: string | null;
      /** false when the bank did not disclose the payer's document (default true). */
      disclosed?: boolean;
      /** When the payer paid (epoch ms, the PSP's Pix `horario`); default now. Decides lateness. */
      paidAt?: number;
      /**
       * Provider facts of the payment merged into `method_details[method]` (a card's brand, last four, provider fee).
       */
      details?: Record<string, unknown>;
    }
  | { transactionId: string; kind: "declined"; method: PaymentMethod; reason?: string; providerErrorCode?: string }
  | { transactionId: string; kind: "processing"; method: PaymentMethod }
  | { transactionId: string; kind: "expired" };

export type SettlementOutcome =
  | "paid"
  | "returned"
  | "refunded"
  | "held"
  | "declined"
  | "processing"
  | "expired"
  | "ignored";

export interface SettlementResult {
  outcome: SettlementOutcome;
  /** The transaction after the notice. */
  row: TransactionRow;
  /** Pix return id (`D...`) when money went back to the payer (underpayment or payer lock). */
  devolutionId?: string;
}

/**
 * A Pix paid too late (at/after `expires_at`, or on an EXPIRED/CANCELLED charge): a live one is
 * returned through its connection (pix-returns.ts, once per end-to-end id). Returns `result`
 * with the row as it now stands and the devolution id, outcome `outcome` when a return was queued.
 */
async function returnLate(
  deps: Deps,
  uow: Uow,
  result: SettlementResult,
  notice: Extract<SettlementNotice, { kind: "paid" }>,
  outcome?: SettlementOutcome,
): Promise<SettlementResult> {
  if (!notice.endToEndId || notice.method !== "PIX" || !result.row.providerConnectionId) return result;
  const devolutionId = pixReturnOf(result.row, notice.endToEndId)?.id ?? newDevolutionId(new Date(deps.clock.nowMs()));
  const r = await queuePixReturnIn(deps, uow, result.row, {
    id: devolutionId,
    endToEndId: notice.endToEndId,
    amount: notice.amount,
    reason: "late_payment",
  });
  if (!r.queued) return result;
  return { ...result, row: r.row, devolutionId, ...(outcome ? { outcome } : {}) };
}

/** Applies `notice` in its own unit of work. Throws Error when the transaction does not exist. */
export function applySettlementNotice(deps: Deps, notice: SettlementNotice): Promise<SettlementResult> {
  return deps.store.tx((uow) => applySettlementNoticeIn(deps, uow, notice));
}

/**
 * Same as applySettlementNotice inside the caller's unit of work `uow`. The row is read with
 * `lockForChange` and every status change goes through the transaction state machine
 * (`moveTransaction`, model.ts): a conditional write from the status read (an Error when it moved
 * meanwhile, which rolls the unit back; never on SQLite, whose units do not interleave).
 */
export async function applySettlementNoticeIn(
  deps: Deps,
  uow: Uow,
  notice: SettlementNotice,
): Promise<SettlementResult> {
  const row = await uow.charges.lockForChange(notice.transactionId);
  if (!row) throw new Error(`settlement notice for unknown transaction ${notice.transactionId}`);
  const now = deps.clock.nowMs();
  const ignored: SettlementResult = { outcome: "ignored", row };
  const change: Change = async (trigger, to, patch, outcome, extra = {}) => {
    const updated = await moveTransaction(uow, row, trigger, to, { ...patch, updatedAt: now });
    if (!updated) throw new Error(`transaction ${row.id} left ${row.status} while a settlement notice was applied`);
    await emitTransition(deps, uow, updated, row.status);
    return { outcome, row: updated, ...extra };
  };

  const expire = () =>
    change(
      "expire",
      "EXPIRED",
      { metadata: withFailure(row, failureBlock("expired", null, row.ttlSeconds, iso(now))) },
      "expired",
    );

  switch (notice.kind) {
    case "expired": {
      if (!isIn(WAITING, row.status)) return ignored;
      return expire();
    }
    case "processing":
      if (!isIn(WAITING, row.status) || !offers(row, notice.method)) return ignored;
      return change("processing", "PROCESSING", {}, "processing");
    case "declined": {
      if (!isIn(IN_FLIGHT, row.status) || !offers(row, notice.method)) return ignored;
      const failure = failureBlock(notice.reason ?? "declined", notice.providerErrorCode, row.ttlSeconds, iso(now));
      return change("decline", "REFUSED", { metadata: withFailure(row, failure) }, "declined");
    }
    case "paid":
      // Paid past pix.expires_at the charge is over even if the expiry sweep has not run yet: the
      // payment is refused and the charge expires now (the sweep then finds nothing to do).
      // A PSP's `horario` before expiry makes a payment confirmed after it still on time.
      if (isIn(WAITING, row.status) && row.expiresAt !== null && (notice.paidAt ?? now) >= row.expiresAt)
        return returnLate(deps, uow, await expire(), notice);
      return applyPaid(deps, uow, row, notice, now, change, ignored);
  }
}

/** A status change of the notice's row by `trigger` to `to` from the status read (see applySettlementNoticeIn), with its events. */
type Change = (
  trigger: TransactionTrigger,
  to: TransactionStatus,
  patch: Partial<TransactionRow>,
  outcome: SettlementOutcome,
  extra?: Partial<SettlementResult>,
) => Promise<SettlementResult>;

async function applyPaid(
  deps: Deps,
  uow: Uow,
  row: TransactionRow,
  notice: Extract<SettlementNotice, { kind: "paid" }>,
  now: number,
  change: Change,
  ignored: SettlementResult,
): Promise<SettlementResult> {
  const isPix = notice.method === "PIX";
  const open = isIn(WAITING, row.status) || (row.status === "PROCESSING" && !isPix);
  if (!offers(row, notice.method)) return ignored;
  if (notice.endToEndId && row.endToEndId === notice.endToEndId) return ignored;
  // A live Pix on a charge already over (EXPIRED, CANCELLED, REFUSED) is at the PSP: it goes back, once.
  if (!open) return isPix && isIn(OVER, row.status) ? returnLate(deps, uow, ignored, notice, "returned") : ignored;
  const at = new Date(now);
  const endToEndId = isPix ? (notice.endToEndId ?? newEndToEndId(at)) : null;

  // Under- or overpayment: the bank returns the money and the sandbox charge keeps waiting; a live
  // Pix is returned through its connection (pix-returns.ts) and its charge, whose cob is concluded
  // and takes no further payment, fails now (see the header).
  if (notice.amount !== row.amount) {
    if (!isPix) return { outcome: "returned", row };
    const live = notice.endToEndId ? pixReturnOf(row, notice.endToEndId) : undefined;
    const devolutionId = live?.id ?? newDevolutionId(at);
    let current = row;
    if (row.providerConnectionId && offeredMethods(row).every((m) => m === "PIX"))
      current = (
        await change(
          "amount_mismatch",
          "REFUSED",
          { metadata: withFailure(row, failureBlock("amount_mismatch", null, row.ttlSeconds, iso(now))) },
          "returned",
        )
      ).row;
    const r = await queuePixReturnIn(deps, uow, current, {
      id: devolutionId,
      endToEndId: endToEndId!,
      amount: notice.amount,
      reason: "amount_mismatch",
    });
    return { outcome: "returned", row: r.row, devolutionId };
  }

  if (isPix && row.payerLockApplied && row.expectedPayerTaxId) {
    const disclosed = notice.disclosed !== false && !!notice.payerTaxId;
    if (!disclosed) {
      const details = withDetail(row, "PIX", { hold: { reason: "payer_not_disclosed", endToEndId, at: iso(now) } });
      return change("hold", "PROCESSING", { endToEndId, paidWith: "PIX", methodDetails: details }, "held");
    }
    if (normalizeTaxId(notice.payerTaxId!) !== row.expectedPayerTaxId) {
      const devolutionId = newDevolutionId(at);
      const details = withDetail(row, "PIX", {
        return: { id: devolutionId, endToEndId, amount: notice.amount, reason: "payer_mismatch", at: iso(now) },
      });
      const r = await change(
        "payer_mismatch",
        "REFUNDED",
        { endToEndId, paidWith: "PIX", refundedAmount: row.amount, methodDetails: details },
        "refunded",
        { devolutionId },
      );
      return {
        ...r,
        row: (
          await queuePixReturnIn(deps, uow, r.row, {
            id: devolutionId,
            endToEndId: endToEndId!,
            amount: notice.amount,
            reason: "payer_mismatch",
          })
        ).row,
      };
    }
  }

  const settings = (await getAccountSettings(uow, row.accountId))!;
  const fee = pixFee(settings, row.amount);
  // The payer as the PSP reported them, kept with the payment (receipt, dashboard): the name, and
  // the document only masked (payments/payer.ts), only when the bank disclosed it.
  const payer = payerBlock(notice.payerName, notice.disclosed !== false ? notice.payerTaxId : null);
  const details = notice.details || payer ? { ...(notice.details ?? {}), ...(payer ? { payer } : {}) } : undefined;
  await creditChargePayment(deps, uow, {
    accountId: row.accountId,
    livemode: row.livemode,
    currency: row.currency,
    amount: row.amount,
    fee,
    transactionId: row.id,
  });
  return change(
    "settle",
    notice.method === "CREDIT_CARD" ? "APPROVED" : "PAID",
    {
      endToEndId,
      paidAt: now,
      paidWith: notice.method,
      platformFee: fee,
      ...(details ? { methodDetails: withDetail(row, notice.method, details) } : {}),
    },
    "paid",
  );
}

function offers(row: TransactionRow, method: string): boolean {
  return offeredMethods(row).includes(method);
}

function withFailure(row: TransactionRow, failure: Record<string, unknown>): string {
  return JSON.stringify({ ...rowMetadata(row), failure });
}

function withDetail(row: TransactionRow, method: string, patch: Record<string, unknown>): string {
  const details = methodDetails(row);
  return JSON.stringify({ ...details, [method]: { ...(details[method] ?? {}), ...patch } });
}
