/**
 * stripe-sim PaymentIntents (ROUTES.md): `GET /v1/payment_intents/:id` (`expand[]`),
 * `POST /v1/payment_intents` for boletos only (confirmed at once: `requires_action` with
 * `next_action.boleto_display_details`), `POST /v1/payment_intents/:id/cancel`. Cards go through
 * Checkout (checkout.ts). Boletos are paid or expire by control routes (`payBoleto`, `failBoleto`).
 */
import type Stripe from "stripe";
import { type ApiCtx, type Reply, type SimEnv, load, nowSec } from "./core";
import { badState, invalid, missing } from "./errors";
import { expand } from "./expand";
import type { Params } from "./form";
import { boletoNumbers } from "./boleto-line";
import { type BillingInput, paymentIntent, type PaymentIntentDoc } from "./payment-objects";
import { cancelPaymentIntent, failPaymentIntent, piWithExtra, succeedPaymentIntent } from "./payments";
import { emit } from "./webhooks";
import { sessionWithExtra } from "./checkout";

const DAY = 86_400;

/** `GET /v1/payment_intents/:id`. */
export function getPaymentIntent(ctx: ApiCtx): Reply {
  const pi = load(ctx.env, ctx.account.id, "payment_intent", ctx.params.id!);
  return { status: 200, body: expand(ctx.env, ctx.account.id, pi, ctx.form.expand()) };
}

function billing(p: Params): BillingInput {
  const pmd = p.reqObj("payment_method_data").only(["type", "billing_details", "boleto", "metadata"]);
  const type = pmd.reqStr("type");
  if (type !== "boleto") throw invalid(pmd.name("type"), "payment_method_data[type] must be boleto.");
  const bd = pmd.reqObj("billing_details").only(["name", "email", "address", "phone"]);
  const addr = bd.reqObj("address").only(["line1", "line2", "city", "state", "postal_code", "country"]);
  const taxId = pmd.reqObj("boleto").only(["tax_id"]).reqStr("tax_id").replace(/\D/g, "");
  const out: BillingInput = {
    name: bd.reqStr("name"),
    email: bd.reqStr("email"),
    address: {
      line1: addr.reqStr("line1"),
      line2: addr.str("line2") ?? null,
      city: addr.reqStr("city"),
      state: addr.reqStr("state"),
      postal_code: addr.reqStr("postal_code"),
      country: addr.str("country") ?? "BR",
    },
    tax_id: taxId,
  };
  if (taxId.length !== 11 && taxId.length !== 14)
    throw invalid(
      `${pmd.name("boleto")}[tax_id]`,
      "The tax ID must be a CPF (11 digits) or CNPJ (14 digits).",
      "invalid_tax_id",
    );
  if (!/^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/.test(out.email))
    throw invalid(`${bd.name("email")}`, "Invalid email address.", "email_invalid");
  if (out.address.country !== "BR")
    throw invalid(`${addr.name("country")}`, "Boleto billing addresses must be in Brazil (BR).");
  return out;
}

/**
 * When a boleto created now expires: 23:59:59 in São Paulo (UTC-3) of the day `days` calendar
 * days from today there (Stripe's `expires_after_days`), as Unix seconds, and that due date.
 */
export function boletoExpiry(nowMs: number, days: number): { expiresAt: number; dueDate: string } {
  const spToday = new Date(nowMs - 3 * 3_600_000).toISOString().slice(0, 10);
  const due = new Date(Date.parse(`${spToday}T00:00:00Z`) + days * DAY * 1000);
  const dueDate = due.toISOString().slice(0, 10);
  return { expiresAt: Math.floor(due.getTime() / 1000) + DAY - 1 + 3 * 3600, dueDate };
}

/** Fills a boleto PaymentIntent's `next_action` (voucher number, URLs, expiry). */
export function boletoNextAction(
  env: SimEnv,
  pi: PaymentIntentDoc,
  expiresAfterDays: number,
): Stripe.PaymentIntent.NextAction {
  const { expiresAt, dueDate } = boletoExpiry(env.clock.nowMs(), expiresAfterDays);
  const { line } = boletoNumbers(pi.id, pi.amount, dueDate);
  return {
    type: "boleto_display_details",
    boleto_display_details: {
      expires_at: expiresAt,
      hosted_voucher_url: `${env.origin}/boleto/${pi.id}`,
      number: line,
      pdf: `${env.origin}/boleto/${pi.id}.pdf`,
    },
  };
}

/** `POST /v1/payment_intents` (boleto). */
export function createPaymentIntent(ctx: ApiCtx): Reply {
  const f = ctx.form.only([
    "amount",
    "currency",
    "allowed_payment_method_types",
    "payment_method_types",
    "payment_method_data",
    "payment_method_options",
    "confirm",
    "metadata",
    "description",
    "receipt_email",
    "statement_descriptor",
    "statement_descriptor_suffix",
  ]);
  const amount = f.reqInt("amount");
  const currency = f.reqStr("currency").toLowerCase();
  if (currency !== "brl") throw invalid("currency", `The simulator only takes brl (got ${currency}).`);
  if (amount < 500) throw invalid("amount", "Amount must be at least R$5.00 brl for boleto.", "amount_too_small");
  if (amount > 4_999_999_99)
    throw invalid("amount", "Amount must be no more than R$49,999,999.99 brl for boleto.", "amount_too_large");
  const typesParam = f.has("allowed_payment_method_types") ? "allowed_payment_method_types" : "payment_method_types";
  const types = f.strs(typesParam);
  if (!types) throw missing("allowed_payment_method_types");
  if (types.length !== 1 || types[0] !== "boleto")
    throw invalid(
      typesParam,
      `The simulator creates boleto PaymentIntents only (${typesParam}[0]=boleto); cards go through Checkout.`,
    );
  if (f.bool("confirm") !== true)
    throw invalid("confirm", "The simulator confirms boleto PaymentIntents at creation: pass confirm=true.");
  const payer = billing(f);
  const days =
    f
      .obj("payment_method_options")
      ?.only(["boleto"])
      .obj("boleto")
      ?.only(["expires_after_days"])
      .int("expires_after_days") ?? 3;
  if (days < 0 || days > 60)
    throw invalid("payment_method_options[boleto][expires_after_days]", "expires_after_days must be between 0 and 60.");
  const pi = paymentIntent({
    amount,
    currency,
    payment_method_types: ["boleto"],
    allowed_payment_method_types: typesParam === "allowed_payment_method_types" ? ["boleto"] : null,
    metadata: f.metadata() ?? {},
    description: f.str("description") ?? null,
    created: nowSec(ctx.env),
    receipt_email: f.str("receipt_email") ?? null,
  });
  const next: PaymentIntentDoc = {
    ...pi,
    status: "requires_action",
    payment_method: `pm_${pi.id.slice(3, 27)}`,
    payment_method_options: { boleto: { expires_after_days: days } },
    next_action: boletoNextAction(ctx.env, pi, days),
  };
  ctx.env.store.tx(() => {
    ctx.env.store.insert(ctx.account.id, "payment_intent", next, { boleto: payer });
    ctx.env.store.setDeadline(next.id, next.next_action!.boleto_display_details!.expires_at!);
  });
  return { status: 200, body: expand(ctx.env, ctx.account.id, next, f.expand()) };
}

/** `POST /v1/payment_intents/:id/cancel`. */
export function cancelPaymentIntentRoute(ctx: ApiCtx): Reply {
  const f = ctx.form.only(["cancellation_reason"]);
  const pi = load(ctx.env, ctx.account.id, "payment_intent", ctx.params.id!);
  const reason = (f.str("cancellation_reason") ?? null) as Stripe.PaymentIntent.CancellationReason | null;
  if (reason !== null && !["duplicate", "fraudulent", "requested_by_customer", "abandoned"].includes(reason))
    throw invalid("cancellation_reason", `Invalid cancellation_reason: ${reason}`);
  if (
    !["requires_payment_method", "requires_capture", "requires_confirmation", "requires_action", "processing"].includes(
      pi.status,
    )
  )
    throw badState(
      "payment_intent_unexpected_state",
      `You cannot cancel this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
    );
  const extra = piWithExtra(ctx.env, pi.id)!.extra;
  if (extra.session) {
    const s = sessionWithExtra(ctx.env, extra.session);
    if (s && s.doc.status === "open")
      throw badState(
        "payment_intent_unexpected_state",
        "This PaymentIntent's Checkout Session is still open: expire the Checkout Session instead.",
      );
  }
  return {
    status: 200,
    body: expand(ctx.env, ctx.account.id, cancelPaymentIntent(ctx.env, ctx.account.id, pi, reason), f.expand()),
  };
}

/** Control: the payer paid the boleto (`requires_action` -> `succeeded`); null when not a waiting boleto. */
export function payBoleto(env: SimEnv, id: string): PaymentIntentDoc | null {
  const pi = piWithExtra(env, id);
  if (pi?.doc.status !== "requires_action" || !pi.extra.boleto) return null;
  const paid = succeedPaymentIntent(env, pi.account, pi.doc, pi.extra);
  if (pi.extra.session) asyncSessionOutcome(env, pi.extra.session, true);
  return paid;
}

/** Control: the boleto expired unpaid (`requires_payment_method` + `payment_intent.payment_failed`). */
export function failBoleto(env: SimEnv, id: string): PaymentIntentDoc | null {
  const pi = piWithExtra(env, id);
  if (pi?.doc.status !== "requires_action" || !pi.extra.boleto) return null;
  const failed = failPaymentIntent(env, pi.account, pi.doc, pi.extra, {
    type: "invalid_request_error",
    code: "payment_method_provider_decline",
    message: "The boleto expired before it was paid.",
  });
  if (pi.extra.session) asyncSessionOutcome(env, pi.extra.session, false);
  return failed;
}

function asyncSessionOutcome(env: SimEnv, sessionId: string, paid: boolean): void {
  const s = sessionWithExtra(env, sessionId);
  if (!s) return;
  const next = { ...s.doc, payment_status: (paid ? "paid" : "unpaid") as Stripe.Checkout.Session.PaymentStatus };
  env.store.update(next);
  emit(
    env,
    s.account,
    paid ? "checkout.session.async_payment_succeeded" : "checkout.session.async_payment_failed",
    next,
  );
}
