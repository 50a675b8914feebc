/**
 * stripe-sim money movements shared by Checkout, boleto and control routes: a PaymentIntent
 * succeeding (its charge and balance transaction with Stripe's fee, `payment_intent.succeeded`),
 * a payment attempt failing (`last_payment_error`, `payment_intent.payment_failed`), and a
 * PaymentIntent being canceled. Everything runs in one store transaction per change; events are
 * emitted after the objects are written.
 */
import type Stripe from "stripe";
import { type SimEnv, loadAny, nowSec, settings } from "./core";
import { simId } from "./ids";
import {
  BOLETO_FEE,
  balanceTransaction,
  type BillingInput,
  type CardUsed,
  cardFee,
  charge,
  type PaymentIntentDoc,
} from "./payment-objects";
import { emit } from "./webhooks";

/** Simulator-only facts about a PaymentIntent. */
export interface PiExtra {
  /** The Checkout Session that created it. */
  session?: string;
  /** The card of the last attempt. */
  card?: CardUsed;
  /** Open a dispute after it is paid (card `...0259`). */
  dispute?: boolean;
  /** The payer of a boleto. */
  boleto?: BillingInput;
}

/** Marks `pi` paid: charge + balance transaction (fee), `succeeded`, `payment_intent.succeeded`. */
export function succeedPaymentIntent(
  env: SimEnv,
  account: string,
  pi: PaymentIntentDoc,
  extra: PiExtra,
): PaymentIntentDoc {
  const created = nowSec(env);
  const isBoleto = pi.payment_method_types.includes("boleto") && !extra.card;
  const fee = isBoleto ? BOLETO_FEE : cardFee(pi.amount);
  const pm = pi.payment_method ?? simId("pm");
  const chargeId = simId("ch");
  const bt = balanceTransaction({
    amount: pi.amount,
    fee,
    source: chargeId,
    type: "charge",
    created,
    description: pi.description,
  });
  const ch = {
    ...charge({
      pi,
      created,
      card: isBoleto ? null : (extra.card ?? null),
      boleto: isBoleto ? (extra.boleto ?? null) : null,
      balance_transaction: bt.id,
      payment_method: pm,
      origin: env.origin,
    }),
    id: chargeId,
  };
  ch.refunds.url = `/v1/charges/${chargeId}/refunds`;
  ch.receipt_url = `${env.origin}/receipts/${chargeId}`;
  const next: PaymentIntentDoc = {
    ...pi,
    status: "succeeded",
    amount_received: pi.amount,
    latest_charge: ch.id,
    payment_method: pm,
    next_action: null,
    last_payment_error: null,
  };
  env.store.tx(() => {
    env.store.insert(account, "balance_transaction", bt);
    env.store.insert(account, "charge", ch, { card: extra.card ?? null });
    env.store.update(next, extra);
    env.store.setDeadline(pi.id, null);
  });
  emit(env, account, "payment_intent.succeeded", next);
  const s = settings(env);
  if (extra.dispute && s.dispute_delay_ms !== null) env.scheduler.schedule("dispute_open", ch.id, s.dispute_delay_ms);
  return next;
}

/** A failed attempt: `requires_payment_method` with `last_payment_error`, `payment_intent.payment_failed`. */
export function failPaymentIntent(
  env: SimEnv,
  account: string,
  pi: PaymentIntentDoc,
  extra: PiExtra,
  error: Stripe.PaymentIntent.LastPaymentError,
): PaymentIntentDoc {
  const next: PaymentIntentDoc = {
    ...pi,
    status: "requires_payment_method",
    payment_method: null,
    next_action: null,
    last_payment_error: {
      ...error,
      doc_url: error.code ? `https://stripe.com/docs/error-codes/${error.code.replace(/_/g, "-")}` : undefined,
    },
  };
  env.store.tx(() => {
    env.store.update(next, extra);
    env.store.setDeadline(pi.id, null);
  });
  emit(env, account, "payment_intent.payment_failed", next);
  return next;
}

/** Cancels a PaymentIntent not yet paid (`payment_intent.canceled`). */
export function cancelPaymentIntent(
  env: SimEnv,
  account: string,
  pi: PaymentIntentDoc,
  reason: Stripe.PaymentIntent.CancellationReason | null,
): PaymentIntentDoc {
  const next: PaymentIntentDoc = {
    ...pi,
    status: "canceled",
    canceled_at: nowSec(env),
    cancellation_reason: reason,
    next_action: null,
  };
  env.store.tx(() => {
    env.store.update(next);
    env.store.setDeadline(pi.id, null);
  });
  emit(env, account, "payment_intent.canceled", next);
  return next;
}

/** The PaymentIntent `id` with its extra, or null. */
export function piWithExtra(
  env: SimEnv,
  id: string,
): { doc: PaymentIntentDoc; extra: PiExtra; account: string } | null {
  return loadAny<"payment_intent", PiExtra>(env, "payment_intent", id);
}
