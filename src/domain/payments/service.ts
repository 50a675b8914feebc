/**
 * Use cases of the payments group on an existing transaction: read, cancel (interface.md
 * transaction transitions) and resend-webhook. Creation goes through the shared
 * `createTransaction` of the charges group (src/http/routes/payments/create.ts wires it).
 */
import type { Deps } from "../deps";
import type { Uow } from "../../store/port";
import { DomainError, notFound } from "../errors";
import type { Caller } from "../scope";
import { iso } from "../../lib/clock";
import type { PaymentProvider, TransactionRow } from "../providers/types";
import { emitRefunded, emitTransition } from "../charges/events";
import { CANCELLABLE, isIn, SETTLED, WAITING, type PaymentMethod } from "../charges/model";
import { moveTransaction } from "../charges/transition";
import { failureBlock } from "../charges/metadata";
import { getTransactionRow } from "../charges/service";
import { rowMetadata } from "../charges/views";
import { emitLegacy } from "../events/emit";
import { toRefund, type RefundRow } from "../refunds/views";
import { offeredMethods } from "./views";

/** The caller's transaction `rawId` (a `ch_` prefix is tolerated) or 404 `not_found`. */
export async function getPayment(deps: Deps, auth: Caller, rawId: string): Promise<TransactionRow> {
  return getTransactionRow(deps, auth, rawId, "transaction");
}

/** Refunds of the caller's transaction `rawId`, newest first; 404 `not_found` as getPayment. */
export async function listPaymentRefunds(deps: Deps, auth: Caller, rawId: string): Promise<RefundRow[]> {
  const row = await getPayment(deps, auth, rawId);
  return deps.store.read.refunds.listForTransaction(row.id);
}

/**
 * Cancels a transaction in WAITING_PAYMENT, PENDING or PROCESSING -> CANCELLED with
 * `metadata.failure {reason: "cancelled", providerErrorCode: null, ttlSeconds?, at}`, `charge.failed` +
 * `payment.failed`; the charge leaves the expiry sweep's index by itself. Each provider serving the transaction
 * withdraws it first (`cancel`, outside any transaction: PATCH /cob REMOVIDA_PELO_USUARIO_RECEBEDOR live).
 * Returns the updated row. Throws 404, 400 `charge_not_cancellable` otherwise (a paid transaction
 * must be refunded instead; a received Pix held by the payer lock is not in flight; the provider
 * refused), 503 `service_unavailable` when a provider cannot be reached.
 * The status write goes through the transaction state machine (trigger `cancel`, model.ts) on the
 * row locked in the unit (`lockForChange`): a payment confirmed at the same moment on another
 * connection either commits first (this cancel then sees it and answers 400) or waits for this
 * unit and then finds the charge CANCELLED; never both (issue 25, test/charges/cancel-race.test.ts).
 */
export async function cancelPayment(deps: Deps, auth: Caller, rawId: string): Promise<TransactionRow> {
  const found = await getPayment(deps, auth, rawId);
  checkCancellable(found);
  const seen = new Set<PaymentProvider>();
  for (const m of offeredMethods(found)) {
    const p = deps.providers.forTransaction(found, m as PaymentMethod);
    if (!p || seen.has(p)) continue;
    seen.add(p);
    const out = await p.cancel(deps.providers.ctx, { transaction: found });
    if (out.status === "retryable" || out.status === "auth_failed")
      throw new DomainError("service_unavailable", "The payment provider is unavailable; retry the cancellation.");
    if (out.status === "rejected")
      throw new DomainError("charge_not_cancellable", `The payment provider refused the cancellation: ${out.message}`);
  }
  return deps.store.tx(async (uow) => {
    const row = await uow.charges.lockForChange(found.id);
    if (!row) throw notFound("transaction");
    checkCancellable(row);
    const now = deps.clock.nowMs();
    const metadata = JSON.stringify({
      ...rowMetadata(row),
      failure: failureBlock("cancelled", null, row.ttlSeconds, iso(now)),
    });
    const updated = await moveTransaction(uow, row, "cancel", "CANCELLED", { metadata, updatedAt: now });
    // Only where a unit reads without locking could the row move between the lock and the write.
    if (!updated)
      throw new DomainError(
        "charge_not_cancellable",
        "The transaction changed while it was being cancelled; read it again.",
      );
    await emitTransition(deps, uow, updated, row.status);
    return updated;
  });
}

/** Throws 400 `charge_not_cancellable` unless `row` may be cancelled (see cancelPayment). */
function checkCancellable(row: TransactionRow): void {
  if (!isIn(CANCELLABLE, row.status)) {
    const hint = isIn(SETTLED, row.status) ? " A paid transaction must be refunded instead." : "";
    throw new DomainError("charge_not_cancellable", `A ${row.status} transaction cannot be cancelled.${hint}`);
  }
  // A PROCESSING Pix with an end-to-end id was received and is held (payer lock, manual review):
  // the payer's money is not in flight, so cancelling would strand it.
  if (row.status === "PROCESSING" && row.endToEndId !== null)
    throw new DomainError(
      "charge_not_cancellable",
      "This payment was received and is held for review; it cannot be cancelled.",
    );
}

/**
 * Re-emits the transaction's current status as fresh events (new `evt_` ids, so new deliveries):
 * the events of the last transition into the current status, or the creation events while it
 * still waits for payment (a REFUNDED one also gets `payment.refunded`, and `charge.refunded` with
 * the refund that completed last, lastCompletedRefund, when it has a charge view). Returns `{resent, status}`;
 * `resent` is false when the status has no event (none was ever emitted for it).
 */
export async function resendWebhook(
  deps: Deps,
  auth: Caller,
  rawId: string,
): Promise<{ resent: boolean; status: string }> {
  const row = await getPayment(deps, auth, rawId);
  const ids = await deps.store.tx(async (uow) => {
    const waiting = isIn(WAITING, row.status);
    const out = await emitTransition(deps, uow, row, waiting ? null : await previousStatusOf(uow, row));
    if (row.status === "REFUNDED") {
      const last = lastCompletedRefund(await uow.refunds.listForTransaction(row.id));
      const charge = last ? await emitRefunded(deps, uow, row, toRefund(last)) : null;
      if (charge) out.push(charge);
      const scope = { accountId: row.accountId, livemode: row.livemode, transactionId: row.id };
      out.push(
        await emitLegacy(deps, uow, scope, "payment.refunded", {
          transactionId: row.id,
          amount: row.amount,
          status: row.status,
          previousStatus: await previousStatusOf(uow, row),
          ...(last ? { refundId: last.id, refundAmount: last.amount } : {}),
          refundedAmount: row.refundedAmount,
          currency: row.currency,
          occurredAt: iso(deps.clock.nowMs()),
        }),
      );
    }
    return out;
  });
  return { resent: ids.length > 0, status: row.status };
}

/**
 * The REFUNDED refund that completed last among `refunds` (greatest `refunded_at`, then
 * `updated_at`, then the later created): the one that made the transaction REFUNDED, whose
 * `charge.refunded` and `payment.refunded` a resend repeats. Undefined when none is REFUNDED.
 */
export function lastCompletedRefund(refunds: readonly RefundRow[]): RefundRow | undefined {
  let best: RefundRow | undefined;
  const key = (r: RefundRow) => [r.refundedAt ?? r.updatedAt, r.updatedAt, r.createdAt] as const;
  for (const r of refunds) {
    if (r.status !== "REFUNDED") continue;
    if (!best) {
      best = r;
      continue;
    }
    const [a, b] = [key(r), key(best)];
    if (a[0] > b[0] || (a[0] === b[0] && (a[1] > b[1] || (a[1] === b[1] && a[2] > b[2])))) best = r;
  }
  return best;
}

/**
 * The status a transaction usually comes from into `status`: the `previousStatus` of a resend
 * when no stored legacy event tells (events with no delivery target are not stored,
 * src/domain/events/emit.ts).
 */
const USUAL_PREVIOUS: Partial<Record<string, string>> = {
  REFUNDED: "PAID",
  CHARGEBACK: "DISPUTE",
  DISPUTE: "PAID",
};

/** Inside `uow`: `previousStatus` of the last legacy event that moved the row into its current status (of its 20 latest), else the usual one. */
async function previousStatusOf(uow: Uow, row: TransactionRow): Promise<string> {
  for (const body of await uow.payments.recentLegacyEventBodies(row.id, 20)) {
    try {
      const data = JSON.parse(body).data;
      if (data?.status === row.status && typeof data.previousStatus === "string" && data.previousStatus !== row.status)
        return data.previousStatus;
    } catch {}
  }
  return USUAL_PREVIOUS[row.status] ?? "WAITING_PAYMENT";
}
