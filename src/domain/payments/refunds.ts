/**
 * Refunds of settled transactions (interface.md `POST /v1/payments/{id}/refund`, "Refund status").
 * Request: validated against the transaction and the refund plan of the provider that serves it
 * (`forTransaction`: a live charge's own connection, deleted or replaced ones included; `planRefund`: not
 * supported -> 400 `REFUND_NOT_SUPPORTED`, effective strategy, submit time), the remainder
 * reserved on the row, the ledger debited (`debitRefund`), the refund stored PENDING and its
 * progress job queued at the plan's time, all in one transaction with the idempotency record.
 * Progress: the job drives the provider's refund and refund-status flows (refund-jobs.ts);
 * `applyRefundStatus` is the one function that moves a refund (that job, the test helper,
 * future provider notifications): FAILED restores the ledger
 * and the remainder; REFUNDED emits `charge.refunded` (transactions with a charge view, extensions.md
 * "Provider events for refunds") and `payment.refunded`, and the transaction becomes REFUNDED once
 * its confirmed refunds reach its amount.
 */
import { tx, type Tx } from "../../db/client";
import type { Deps } from "../../deps";
import { DomainError, invalidParam, notFound } from "../errors";
import type { Caller, Scope } from "../scope";
import { iso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { TransactionRow } from "../../providers/types";
import { getAccountSettings, pixFee } from "../accounts/settings";
import { emitRefundedSync as emitRefunded, emitTransitionSync as emitTransition } from "../charges/events";
import { SETTLED, type PaymentMethod } from "../charges/model";
import { findById, findScoped, updateTransaction } from "../charges/repo";
import { emitLegacy } from "../events/emit";
import { debitRefund, restoreRefund } from "../ledger";
import { checkIdempotencyKey } from "../idempotency/store";
import { canMove, REFUND_ADVANCE_JOB, type RefundStatus, type RefundStrategy } from "./refund-model";
import { confirmedRefundTotal, findRefund, findRefundScoped, insertRefund, releaseRefundable, reserveRefundable, updateRefund } from "./refund-repo";
import { toRefund, type PublicRefund, type RefundRow } from "./refund-views";

export interface RefundRequest {
  idempotencyKey: string;
  /** Minor units; omitted = the whole remaining refundable amount. */
  amount?: number;
  /** Up to 500 characters. */
  reason?: string;
  strategy?: RefundStrategy;
  passFeeToTenant?: boolean;
  destinationKey?: string;
}

/** Scope of refund idempotency records (the transaction id is part of the hashed body). */
export const REFUND_SCOPE = "POST /v1/payments/{id}/refund";

/**
 * Creates a refund of transaction `rawId` -> 201 refund (PENDING), or the original refund on a
 * replay of `idempotencyKey`. Throws 404 `not_found`; 400 `charge_disputed` (CHARGEBACK/DISPUTE),
 * `charge_not_refundable` (not PAID/APPROVED), `REFUND_NOT_SUPPORTED` (provider without refunds),
 * `refund_amount_exceeds_remaining`, `invalid_request` (strategy/fee/key on a method or strategy
 * that has none), `insufficient_balance` (ledger); 409 idempotency conflicts.
 */
export async function createRefund(deps: Deps, auth: Caller, id: string, req: RefundRequest) {
  checkIdempotencyKey(req.idempotencyKey, "idempotencyKey");
  // Like every other payments route (getPayment), a `ch_` prefix is tolerated.
  const rawId = id.startsWith("ch_") ? id.slice(3) : id;
  return deps.idempotency.run(
    { accountId: auth.accountId, livemode: auth.livemode, scope: REFUND_SCOPE, key: req.idempotencyKey, body: { transactionId: rawId, ...req } },
    (claim) =>
      tx(deps.db, (t) => {
        const row = requestRefund(deps, t, auth, rawId, req);
        const body = toRefund(row);
        deps.idempotency.complete(t, claim, 201, body);
        return { status: 201, body };
      }),
  );
}

function requestRefund(deps: Deps, t: Tx, auth: Caller, rawId: string, req: RefundRequest): RefundRow {
  const trx = findScoped(deps.db, auth.accountId, auth.livemode, rawId);
  if (!trx) throw notFound("transaction");
  if (trx.status === "CHARGEBACK" || trx.status === "DISPUTE")
    throw new DomainError("charge_disputed", "This transaction is under dispute (MED or chargeback) and cannot be refunded.");
  if (!SETTLED.includes(trx.status as never))
    throw new DomainError("charge_not_refundable", `Only PAID or APPROVED transactions can be refunded; this one is ${trx.status}.`);
  const method = (trx.paidWith ?? "PIX") as PaymentMethod;
  // The connection that created a live charge refunds it, even deleted or replaced since.
  const provider = deps.providers.forTransaction(trx, method);
  if (!provider) throw new DomainError("REFUND_NOT_SUPPORTED", `Refunds are not supported for ${method} payments.`);
  // The id is known before the plan: a PSP's devolução id derives from it.
  const id = newId("refund");
  const plan = provider.planRefund(deps.providers.ctx, { transaction: trx, refundId: id, method, strategy: req.strategy, destinationKey: req.destinationKey });
  if (plan.status === "invalid") throw invalidParam(plan.param ?? "strategy", plan.message);
  if (plan.status !== "pending") throw new DomainError("REFUND_NOT_SUPPORTED", plan.message);
  const strategy = checkStrategy(method, req, plan.strategy);
  const remaining = trx.amount - trx.refundedAmount;
  const amount = req.amount ?? remaining;
  if (remaining <= 0 || amount > remaining)
    throw new DomainError("refund_amount_exceeds_remaining", `The refund amount exceeds the remaining refundable amount (${Math.max(0, remaining)}).`, {
      param: "amount",
    });
  const now = deps.clock.nowMs();
  if (!reserveRefundable(t, trx.id, amount, now))
    throw new DomainError("refund_amount_exceeds_remaining", "The refund amount exceeds the remaining refundable amount.", { param: "amount" });
  const settings = getAccountSettings(t, trx.accountId);
  const pixOutFee = strategy === "cashout" && req.passFeeToTenant && settings ? pixFee(settings, amount) : 0;
  debitRefund(deps, t, {
    accountId: trx.accountId,
    livemode: trx.livemode,
    currency: trx.currency,
    amount,
    refundId: id,
    transactionId: trx.id,
    ...(pixOutFee > 0 ? { pixOutFee } : {}),
  });
  const row: RefundRow = {
    id,
    accountId: trx.accountId,
    livemode: trx.livemode,
    transactionId: trx.id,
    amount,
    currency: trx.currency,
    status: "PENDING",
    reason: req.reason ?? null,
    strategy,
    passFeeToTenant: req.passFeeToTenant ?? false,
    destinationKey: req.destinationKey ?? null,
    pixOutFee,
    method,
    providerRefundId: plan.providerRefundId,
    failureReason: null,
    createdAt: now,
    updatedAt: now,
    refundedAt: null,
  };
  insertRefund(t, row);
  deps.jobs.enqueue(t, { kind: REFUND_ADVANCE_JOB, payload: { refundId: id }, dueAt: plan.checkAt, dedupeKey: `${REFUND_ADVANCE_JOB}:${id}` });
  return row;
}

/** Strategy rules: PIX only (`devolution` | `cashout`, default the provider's); fee/key only for cashout. */
function checkStrategy(method: PaymentMethod, req: RefundRequest, planned: RefundStrategy | null): RefundStrategy | null {
  if (method !== "PIX") {
    if (req.strategy !== undefined) throw invalidParam("strategy", "strategy applies to PIX refunds only.");
    if (req.passFeeToTenant) throw invalidParam("passFeeToTenant", "passFeeToTenant applies to PIX cashout refunds only.");
    if (req.destinationKey !== undefined) throw invalidParam("destinationKey", "destinationKey applies to PIX cashout refunds only.");
    return null;
  }
  const strategy = planned ?? req.strategy ?? "cashout";
  if (strategy === "devolution") {
    if (req.passFeeToTenant) throw invalidParam("passFeeToTenant", "passFeeToTenant applies to cashout refunds only.");
    if (req.destinationKey !== undefined) throw invalidParam("destinationKey", "destinationKey applies to cashout refunds only.");
  }
  return strategy;
}

/**
 * Moves refund `refundId` to `to` (the one entry point for refund progress). Returns the refund
 * object. Throws 400 `invalid_state` when the move is not allowed (e.g. from a final status).
 * PENDING -> REFUNDED passes through IN_PROGRESS.
 */
export function applyRefundStatus(deps: Deps, t: Tx, refundId: string, to: RefundStatus, failureReason?: string): PublicRefund {
  let row = findRefund(t, refundId);
  if (!row) throw notFound("refund");
  const from = row.status as RefundStatus;
  if (!canMove(from, to)) throw new DomainError("invalid_state", `A ${from} refund cannot move to ${to}.`);
  const now = deps.clock.nowMs();
  if (to === "IN_PROGRESS" || to === "REFUNDED")
    row = updateRefund(t, row.id, { status: to, updatedAt: now, ...(to === "REFUNDED" ? { refundedAt: now } : {}) });
  if (to === "FAILED") {
    row = updateRefund(t, row.id, { status: "FAILED", updatedAt: now, failureReason: failureReason ?? "provider_rejected" });
    restoreRefund(deps, t, { refundId: row.id });
    releaseRefundable(t, row.transactionId, row.amount, now);
  }
  if (to === "REFUNDED") confirmRefund(deps, t, row, now);
  if (to === "REFUNDED" || to === "FAILED") deps.jobs.cancel(t, `${REFUND_ADVANCE_JOB}:${row.id}`);
  return toRefund(row);
}

/**
 * REFUNDED: the transaction becomes REFUNDED once fully refunded; then `charge.refunded` (the
 * charge as it stands + this refund), `payment.refunded`, and the status-change events.
 */
function confirmRefund(deps: Deps, t: Tx, refund: RefundRow, now: number): void {
  let trx = findById(t, refund.transactionId) as TransactionRow;
  const confirmed = confirmedRefundTotal(t, trx.id);
  const previousStatus = trx.status;
  const full = confirmed >= trx.amount && SETTLED.includes(trx.status as never);
  if (full) trx = updateTransaction(t, trx.id, { status: "REFUNDED", updatedAt: now });
  emitRefunded(deps, t, trx, toRefund(refund));
  emitLegacy(deps, t, { accountId: trx.accountId, livemode: trx.livemode, transactionId: trx.id }, "payment.refunded", {
    transactionId: trx.id,
    amount: trx.amount,
    status: trx.status,
    previousStatus,
    refundId: refund.id,
    refundAmount: refund.amount,
    refundedAmount: confirmed,
    currency: trx.currency,
    occurredAt: iso(now),
  });
  if (full) emitTransition(deps, t, trx, previousStatus);
}

/**
 * Sandbox helper (extensions.md `POST /v1/test_helpers/refunds/{id}/advance`): moves the caller's
 * refund `id` to `to` through applyRefundStatus in one transaction (FAILED with reason
 * `sandbox_failed`). Throws `not_found` for an unknown or other account's refund, `invalid_state`
 * for a move the refund status table forbids.
 */
export function advanceSandboxRefund(deps: Deps, scope: Scope, id: string, to: "IN_PROGRESS" | "REFUNDED" | "FAILED"): PublicRefund {
  return tx(deps.db, (t) => {
    const refund = findRefundScoped(t, scope.accountId, scope.livemode, id);
    if (!refund) throw notFound("refund");
    return applyRefundStatus(deps, t, refund.id, to, to === "FAILED" ? "sandbox_failed" : undefined);
  });
}
