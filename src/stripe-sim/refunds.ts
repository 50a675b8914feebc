/**
 * stripe-sim refunds (ROUTES.md): `POST /v1/refunds` `{payment_intent | charge, amount?, metadata?,
 * reason?}` creates a `pending` refund (the charge's `amount_refunded` counts it at once and
 * `charge.refunded` is sent), which becomes `succeeded` after the refund delay (or by control
 * route) or `failed` by control route (the amount returns to the charge); both send
 * `charge.refund.updated`. Boleto charges cannot be refunded (400 `charge_not_refundable`),
 * disputed ones neither (400 `charge_disputed`). `GET /v1/refunds/:id`, `GET /v1/refunds`.
 */
import type Stripe from "stripe";
import { type ApiCtx, type Reply, type SimEnv, load, loadAny, nowSec, settings } from "./core";
import { badState, invalid } from "./errors";
import { expand } from "./expand";
import { balanceTransaction, type ChargeDoc, refund, type RefundDoc } from "./payment-objects";
import { listPage } from "./lists";
import { emit } from "./webhooks";

const REASONS = ["duplicate", "fraudulent", "requested_by_customer"];

function brl(centavos: number): string {
  return `R$${(centavos / 100).toFixed(2)}`;
}

function refundsOf(env: SimEnv, chargeId: string): RefundDoc[] {
  return env.store.children(chargeId, "refund").map((r) => JSON.parse(r.doc) as RefundDoc);
}

/** Rewrites a charge's `amount_refunded`, `refunded` and `refunds` from its refunds. */
function syncCharge(env: SimEnv, account: string, chargeId: string): ChargeDoc {
  const ch = load(env, account, "charge", chargeId);
  const all = refundsOf(env, chargeId);
  const counted = all
    .filter((r) => r.status === "pending" || r.status === "succeeded")
    .reduce((s, r) => s + r.amount, 0);
  const next: ChargeDoc = {
    ...ch,
    amount_refunded: counted,
    refunded: counted >= ch.amount,
    refunds: { ...ch.refunds, data: all, has_more: false },
  };
  env.store.update(next);
  return next;
}

/** `POST /v1/refunds`. */
export function createRefund(ctx: ApiCtx): Reply {
  const { env, account } = ctx;
  const f = ctx.form.only(["payment_intent", "charge", "amount", "metadata", "reason", "instructions_email"]);
  const piId = f.str("payment_intent");
  const chId = f.str("charge");
  if (piId === undefined && chId === undefined)
    throw invalid(
      undefined,
      "One of the following params should be provided for this request: payment_intent or charge.",
      "parameter_missing",
    );
  let ch: ChargeDoc;
  if (piId !== undefined) {
    const pi = load(env, account.id, "payment_intent", piId, "payment_intent");
    if (pi.status !== "succeeded" || !pi.latest_charge)
      throw badState(
        "payment_intent_unexpected_state",
        `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
        "payment_intent",
      );
    ch = load(env, account.id, "charge", pi.latest_charge);
    if (chId !== undefined && chId !== ch.id)
      throw invalid("charge", `Charge ${chId} does not belong to PaymentIntent ${pi.id}.`);
  } else ch = load(env, account.id, "charge", chId!, "charge");
  if (ch.payment_method_details?.type === "boleto")
    throw badState(
      "charge_not_refundable",
      "Boleto payments cannot be refunded.",
      piId !== undefined ? "payment_intent" : "charge",
    );
  if (ch.disputed) throw badState("charge_disputed", `Charge ${ch.id} has been charged back; cannot issue a refund.`);
  const remaining = ch.amount - ch.amount_refunded;
  const amount = f.int("amount") ?? remaining;
  if (remaining <= 0) throw badState("charge_already_refunded", `Charge ${ch.id} has already been refunded.`);
  if (amount < 1) throw invalid("amount", "Refund amount must be positive.", "parameter_invalid_integer");
  if (amount > remaining)
    throw invalid(
      "amount",
      `Refund amount (${brl(amount)}) is greater than unrefunded amount on charge (${brl(remaining)})`,
      "amount_too_large",
    );
  const reason = f.str("reason") ?? null;
  if (reason !== null && !REASONS.includes(reason))
    throw invalid("reason", `Invalid reason: must be one of ${REASONS.join(", ")}`);
  const re = refund({
    amount,
    charge: ch.id,
    payment_intent: typeof ch.payment_intent === "string" ? ch.payment_intent : "",
    metadata: f.metadata() ?? {},
    reason: reason as Stripe.Refund.Reason | null,
    created: nowSec(env),
    payment_method: ch.payment_method ?? "",
  });
  let charged!: ChargeDoc;
  env.store.tx(() => {
    env.store.insert(account.id, "refund", re, {}, ch.id);
    charged = syncCharge(env, account.id, ch.id);
  });
  emit(env, account.id, "charge.refunded", charged, { id: ctx.requestId, idempotency_key: ctx.idempotencyKey });
  const delay = settings(env).refund_delay_ms;
  if (delay !== null) env.scheduler.schedule("refund_settle", re.id, delay);
  return { status: 200, body: expand(env, account.id, re, f.expand()) };
}

/** `GET /v1/refunds[?payment_intent|charge]` (newest first; the list Cofre searches by metadata). */
export function listRefunds(ctx: ApiCtx): Reply {
  const f = ctx.form.only(["payment_intent", "charge", "limit", "starting_after", "ending_before", "created"]);
  const pi = f.str("payment_intent");
  const ch = f.str("charge");
  const rows =
    ch !== undefined
      ? ctx.env.store.children(ch, "refund").filter((r) => r.account === ctx.account.id)
      : pi !== undefined
        ? ctx.env.store.listWhere(ctx.account.id, "refund", "payment_intent", pi)
        : ctx.env.store.list(ctx.account.id, "refund");
  const docs = rows
    .map((r) => JSON.parse(r.doc) as RefundDoc)
    .filter((r) => pi === undefined || r.payment_intent === pi);
  return { status: 200, body: listPage(ctx, docs, "/v1/refunds") };
}

/** `GET /v1/refunds/:id`. */
export function getRefund(ctx: ApiCtx): Reply {
  const re = load(ctx.env, ctx.account.id, "refund", ctx.params.id!);
  return { status: 200, body: expand(ctx.env, ctx.account.id, re, ctx.form.expand()) };
}

/**
 * Ends a pending refund: `succeeded` (a refund balance transaction) or `failed` with
 * `failure_reason` (the amount returns to the charge); `charge.refund.updated`. Null when the
 * refund is unknown or no longer pending.
 */
export function finishRefund(
  env: SimEnv,
  id: string,
  outcome: { status: "succeeded" } | { status: "failed"; failure_reason: string },
): RefundDoc | null {
  const found = loadAny(env, "refund", id);
  if (found?.doc.status !== "pending") return null;
  env.scheduler.cancel("refund_settle", id);
  const re = found.doc;
  const created = nowSec(env);
  let next: RefundDoc;
  env.store.tx(() => {
    if (outcome.status === "succeeded") {
      const bt = balanceTransaction({
        amount: -re.amount,
        fee: 0,
        source: re.id,
        type: "refund",
        created,
        description: "REFUND FOR CHARGE",
      });
      env.store.insert(found.account, "balance_transaction", bt);
      next = {
        ...re,
        status: "succeeded",
        balance_transaction: bt.id,
        destination_details: {
          type: "card",
          card: {
            reference: `ARN${re.id.slice(3, 15)}`,
            reference_status: "available",
            reference_type: "acquirer_reference_number",
            type: "refund",
          },
        },
      };
    } else next = { ...re, status: "failed", failure_reason: outcome.failure_reason };
    env.store.update(next);
    syncCharge(env, found.account, re.charge);
  });
  emit(env, found.account, "charge.refund.updated", next!);
  return next!;
}
