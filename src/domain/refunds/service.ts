/**
 * Refunds of settled transactions (interface.md `POST /v1/payments/{id}/refund`, "Refund status").
 * Request: validated against the transaction and the refund plan of the provider that serves it
 * (`forTransaction`: a live charge's own connection, deleted or replaced ones included; `planRefund`: not
 * supported -> 400 `REFUND_NOT_SUPPORTED`, effective strategy, submit time), the remainder
 * reserved on the row by a conditional write (still settled, total within the amount: whatever was
 * read before), the ledger debited (`debitRefund`), the refund stored PENDING and its progress job
 * queued at the plan's time, all in one unit of work with the idempotency record.
 * Progress: the job drives the provider's refund and refund-status flows (jobs.ts);
 * `applyRefundStatus` is the one function that moves a refund (that job, the test helper,
 * future provider notifications): FAILED restores the ledger
 * and the remainder; REFUNDED emits `charge.refunded` (transactions with a charge view, extensions.md
 * "Provider events for refunds") and `payment.refunded`, and the transaction becomes REFUNDED once
 * its confirmed refunds reach its amount.
 */
import type { Deps } from "../deps";
import type { Uow } from "../../store/port";
import { DomainError, invalidParam, notFound } from "../errors";
import type { Caller, Scope } from "../scope";
import { iso } from "../../lib/clock";
import { newId } from "../../lib/ids";
import type { TransactionRow } from "../providers/types";
import { getAccountSettings } from "../accounts/settings";
import { emitRefunded, emitTransition } from "../charges/events";
import { DISPUTED, isIn, REFUNDABLE, SETTLED, type PaymentMethod } from "../charges/model";
import { moveTransaction } from "../charges/transition";
import { emitLegacy } from "../events/emit";
import { debitRefund, restoreRefund } from "../ledger";
import { checkIdempotencyKey } from "../idempotency/store";
import { canMove, REFUND_ADVANCE_JOB, type RefundStatus, type RefundStrategy } from "./model";
import { toRefund, type PublicRefund, type RefundRow } from "./views";

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
    {
      accountId: auth.accountId,
      livemode: auth.livemode,
      scope: REFUND_SCOPE,
      key: req.idempotencyKey,
      body: { transactionId: rawId, ...req },
    },
    (claim) =>
      deps.store.tx(async (uow) => {
        const row = await requestRefund(deps, uow, auth, rawId, req);
        const body = toRefund(row);
        await deps.idempotency.complete(uow, claim, 201, body);
        return { status: 201, body };
      }),
  );
}

/**
 * Inside `uow`: validates the request against the transaction and its provider's plan, then reserves, debits, stores
 * and queues (see the module header).
 */
async function requestRefund(
  deps: Deps,
  uow: Uow,
  auth: Caller,
  rawId: string,
  req: RefundRequest,
): Promise<RefundRow> {
  const trx = await uow.charges.byScopedId(auth.accountId, auth.livemode, rawId);
  if (!trx) throw notFound("transaction");
  checkRefundable(trx.status);
  const method = (trx.paidWith ?? "PIX") as PaymentMethod;
  // The connection that created a live charge refunds it, even deleted or replaced since.
  const provider = deps.providers.forTransaction(trx, method);
  if (!provider) throw new DomainError("REFUND_NOT_SUPPORTED", `Refunds are not supported for ${method} payments.`);
  // The id is known before the plan: a PSP's devolução id derives from it.
  const id = newId("refund");
  const plan = provider.planRefund(deps.providers.ctx, {
    transaction: trx,
    refundId: id,
    method,
    strategy: req.strategy,
    destinationKey: req.destinationKey,
  });
  if (plan.status === "invalid") throw invalidParam(plan.param ?? "strategy", plan.message);
  if (plan.status !== "pending") throw new DomainError("REFUND_NOT_SUPPORTED", plan.message);
  const strategy = checkStrategy(method, req, plan.strategy);
  const remaining = trx.amount - trx.refundedAmount;
  const amount = req.amount ?? remaining;
  if (remaining <= 0 || amount > remaining)
    throw new DomainError(
      "refund_amount_exceeds_remaining",
      `The refund amount exceeds the remaining refundable amount (${Math.max(0, remaining)}).`,
      {
        param: "amount",
      },
    );
  const now = deps.clock.nowMs();
  // What was read above may be stale where units run concurrently (PostgreSQL): the write itself
  // re-checks the status and the remainder.
  if (!(await uow.refunds.reserveRefundable(trx.id, amount, REFUNDABLE, now))) {
    // Changed since it was read: say why (a dispute or a status change first, else the remainder).
    const current = await uow.charges.byId(trx.id);
    if (current) checkRefundable(current.status);
    throw new DomainError(
      "refund_amount_exceeds_remaining",
      "The refund amount exceeds the remaining refundable amount.",
      { param: "amount" },
    );
  }
  const settings = await getAccountSettings(uow, trx.accountId);
  // extensions.md "Refunds by cashout": passFeeToTenant debits the payout fee (a cashout is a Pix sent).
  const pixOutFee = strategy === "cashout" && req.passFeeToTenant && settings ? settings.payout_fee_fixed : 0;
  await debitRefund(deps, uow, {
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
  await uow.refunds.insert(row);
  await deps.jobs.enqueue(uow, {
    kind: REFUND_ADVANCE_JOB,
    payload: { refundId: id },
    dueAt: plan.checkAt,
    dedupeKey: `${REFUND_ADVANCE_JOB}:${id}`,
  });
  return row;
}

/** Throws 400 `charge_disputed` (CHARGEBACK/DISPUTE) or `charge_not_refundable` (not PAID/APPROVED) unless a transaction in `status` may be refunded. */
function checkRefundable(status: string): void {
  if (isIn(DISPUTED, status))
    throw new DomainError(
      "charge_disputed",
      "This transaction is under dispute (MED or chargeback) and cannot be refunded.",
    );
  if (!isIn(REFUNDABLE, status))
    throw new DomainError(
      "charge_not_refundable",
      `Only PAID or APPROVED transactions can be refunded; this one is ${status}.`,
    );
}

/** Strategy rules: PIX only (`devolution` | `cashout`, default the provider's); fee/key only for cashout. */
function checkStrategy(
  method: PaymentMethod,
  req: RefundRequest,
  planned: RefundStrategy | null,
): RefundStrategy | null {
  if (method !== "PIX") {
    if (req.strategy !== undefined) throw invalidParam("strategy", "strategy applies to PIX refunds only.");
    if (req.passFeeToTenant)
      throw invalidParam("passFeeToTenant", "passFeeToTenant applies to PIX cashout refunds only.");
    if (req.destinationKey !== undefined)
      throw invalidParam("destinationKey", "destinationKey applies to PIX cashout refunds only.");
    return null;
  }
  const strategy = planned ?? req.strategy ?? "cashout";
  if (strategy === "devolution") {
    if (req.passFeeToTenant) throw invalidParam("passFeeToTenant", "passFeeToTenant applies to cashout refunds only.");
    if (req.destinationKey !== undefined)
      throw invalidParam("destinationKey", "destinationKey applies to cashout refunds only.");
  }
  return strategy;
}

/**
 * Inside `uow`: moves refund `refundId` to `to` (the one entry point for refund progress). Returns
 * the refund object. Throws 404 `not_found` for an unknown refund, 400 `invalid_state` when the
 * move is not allowed (e.g. from a final status; interface.md "Refund status").
 */
export async function applyRefundStatus(
  deps: Deps,
  uow: Uow,
  refundId: string,
  to: RefundStatus,
  failureReason?: string,
): Promise<PublicRefund> {
  let row = await uow.refunds.byId(refundId);
  if (!row) throw notFound("refund");
  const from = row.status as RefundStatus;
  if (!canMove(from, to)) throw new DomainError("invalid_state", `A ${from} refund cannot move to ${to}.`);
  const now = deps.clock.nowMs();
  const patch =
    to === "FAILED"
      ? { status: to, updatedAt: now, failureReason: failureReason ?? "provider_rejected" }
      : { status: to, updatedAt: now, ...(to === "REFUNDED" ? { refundedAt: now } : {}) };
  // Conditional on the status read above: a refund moved meanwhile (concurrent units) moves once.
  const moved = await uow.refunds.moveFrom(row.id, from, patch);
  if (!moved)
    throw new DomainError("invalid_state", `The refund moved from ${from} meanwhile; it cannot move to ${to}.`);
  row = moved;
  if (to === "FAILED") {
    await restoreRefund(deps, uow, { refundId: row.id });
    await uow.refunds.releaseRefundable(row.transactionId, row.amount, now);
  }
  if (to === "REFUNDED") await confirmRefund(deps, uow, row, now);
  if (to === "REFUNDED" || to === "FAILED") await deps.jobs.cancel(uow, `${REFUND_ADVANCE_JOB}:${row.id}`);
  return toRefund(row);
}

/**
 * REFUNDED: the transaction becomes REFUNDED once fully refunded; then `charge.refunded` (the
 * charge as it stands + this refund), `payment.refunded`, and the status-change events.
 */
async function confirmRefund(deps: Deps, uow: Uow, refund: RefundRow, now: number): Promise<void> {
  // Locked before the refunds are summed: two refunds of one charge confirming at once (units on
  // two PostgreSQL connections) each wait for the other's commit, so the later sees both and
  // marks the charge REFUNDED; and the status it decides on is the current one.
  let trx = (await uow.charges.lockForChange(refund.transactionId)) as TransactionRow;
  const confirmed = await uow.refunds.confirmedTotal(trx.id);
  const previousStatus = trx.status;
  // A charge disputed meanwhile keeps its status (the refund still counts in `refundedAmount`).
  const full = confirmed >= trx.amount && isIn(SETTLED, trx.status);
  if (full) {
    const moved = await moveTransaction(uow, trx, "refund", "REFUNDED", { updatedAt: now });
    if (!moved) throw new Error(`transaction ${trx.id} left ${previousStatus} while a refund was confirmed`);
    trx = moved;
  }
  await emitRefunded(deps, uow, trx, toRefund(refund));
  await emitLegacy(
    deps,
    uow,
    { accountId: trx.accountId, livemode: trx.livemode, transactionId: trx.id },
    "payment.refunded",
    {
      transactionId: trx.id,
      amount: trx.amount,
      status: trx.status,
      previousStatus,
      refundId: refund.id,
      refundAmount: refund.amount,
      refundedAmount: confirmed,
      currency: trx.currency,
      occurredAt: iso(now),
    },
  );
  if (full) await emitTransition(deps, uow, trx, previousStatus);
}

/**
 * Sandbox helper (extensions.md `POST /v1/test_helpers/refunds/{id}/advance`): moves the caller's
 * refund `id` to `to` through applyRefundStatus in one unit of work (FAILED with reason
 * `sandbox_failed`). Throws `not_found` for an unknown or other account's refund, `invalid_state`
 * for a move the refund status table forbids.
 */
export async function advanceSandboxRefund(
  deps: Deps,
  scope: Scope,
  id: string,
  to: "IN_PROGRESS" | "REFUNDED" | "FAILED",
): Promise<PublicRefund> {
  return deps.store.tx(async (uow) => {
    const refund = await uow.refunds.byIdScoped(scope.accountId, scope.livemode, id);
    if (!refund) throw notFound("refund");
    return applyRefundStatus(deps, uow, refund.id, to, to === "FAILED" ? "sandbox_failed" : undefined);
  });
}
