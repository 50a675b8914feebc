/**
 * stripe-sim disputes: opened on a paid card charge (card `...0259` after the dispute delay, or
 * `/_sim/charges/:id/dispute`) with status `needs_response`, the full amount withdrawn (a
 * balance transaction of -amount) and `charge.dispute.created`; closed by control route `won`
 * (the amount reinstated) or `lost`, with `charge.dispute.closed`. `GET /v1/disputes/:id`.
 */
import type Stripe from "stripe";
import { type ApiCtx, type Reply, type SimEnv, load, loadAny, nowSec } from "./core";
import { expand } from "./expand";
import { dispute, type DisputeDoc } from "./dispute-objects";
import { balanceTransaction } from "./payment-objects";
import { emit } from "./webhooks";

/** `GET /v1/disputes/:id`. */
export function getDispute(ctx: ApiCtx): Reply {
  const du = load(ctx.env, ctx.account.id, "dispute", ctx.params.id!);
  return { status: 200, body: expand(ctx.env, ctx.account.id, du, ctx.form.expand()) };
}

/** Opens a dispute on charge `chargeId`; an error message when it cannot be disputed. */
export function openDispute(env: SimEnv, chargeId: string, reason = "fraudulent"): DisputeDoc | string {
  const found = loadAny(env, "charge", chargeId);
  if (!found) return `no such charge: ${chargeId}`;
  const ch = found.doc;
  if (ch.disputed) return `charge ${chargeId} is already disputed`;
  if (ch.payment_method_details?.type !== "card") return "only card charges can be disputed";
  const created = nowSec(env);
  const bt = balanceTransaction({
    amount: -ch.amount,
    fee: 0,
    source: "",
    type: "adjustment",
    created,
    description: `Chargeback withdrawal for ${ch.id}`,
  });
  const du = dispute({ charge: ch, reason, created, balance_transaction: bt });
  bt.source = du.id;
  du.balance_transactions = [bt];
  env.store.tx(() => {
    env.store.insert(found.account, "balance_transaction", bt);
    env.store.insert(found.account, "dispute", du);
    env.store.update({ ...ch, disputed: true });
  });
  emit(env, found.account, "charge.dispute.created", du);
  return du;
}

/** Closes an open dispute `won` or `lost`; an error message when it is not open. */
export function closeDispute(env: SimEnv, id: string, outcome: "won" | "lost"): DisputeDoc | string {
  const found = loadAny(env, "dispute", id);
  if (!found) return `no such dispute: ${id}`;
  const du = found.doc;
  if (du.status === "won" || du.status === "lost") return `dispute ${id} is already closed (${du.status})`;
  const next: DisputeDoc = { ...du, status: outcome as Stripe.Dispute.Status, is_charge_refundable: false };
  env.store.tx(() => {
    if (outcome === "won") {
      const bt = balanceTransaction({
        amount: du.amount,
        fee: 0,
        source: du.id,
        type: "adjustment",
        created: nowSec(env),
        description: `Chargeback reversal for ${String(du.charge)}`,
      });
      env.store.insert(found.account, "balance_transaction", bt);
      next.balance_transactions = [...du.balance_transactions, bt];
    }
    env.store.update(next);
  });
  emit(env, found.account, "charge.dispute.closed", next);
  return next;
}
