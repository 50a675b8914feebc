/**
 * Stripe objects and errors as provider outcomes, and the row facts they need (the status table is in ./provider.ts).
 */
import type { ProviderFailure, RefundOutcome, TransactionRow } from "../../domain/providers/types";
import { Stripe, stripeFailureText } from "./client";

/** Seconds between polls of an open session or boleto, by poll number (then the last one, until the expiry). */
export const POLL_DELAYS_S = [60, 300, 900, 3600] as const;

/** What the adapter keeps in `method_details` (never shown as such: the views allowlist). */
export interface CardDetails {
  session?: string;
  sessionUrl?: string;
  paymentIntent?: string;
}
export interface BoletoDetails {
  paymentIntent?: string;
}

export function detailsOf(tx: TransactionRow): { card: CardDetails; boleto: BoletoDetails } {
  try {
    const d = JSON.parse(tx.methodDetails) as Record<string, Record<string, unknown>>;
    return { card: (d.CREDIT_CARD ?? {}) as CardDetails, boleto: (d.BOLETO ?? {}) as BoletoDetails };
  } catch {
    return { card: {}, boleto: {} };
  }
}

export function metadataOf(tx: TransactionRow): Record<string, unknown> {
  try {
    const m = JSON.parse(tx.metadata);
    return m && typeof m === "object" ? m : {};
  } catch {
    return {};
  }
}

/** A Stripe failure as an outcome (see the status table). */
export function failureOf(err: unknown, rejectedCode = "stripe_rejected"): ProviderFailure {
  const message = stripeFailureText(err);
  if (err instanceof Stripe.errors.StripeAuthenticationError || err instanceof Stripe.errors.StripePermissionError)
    return { status: "auth_failed", code: "stripe_authentication", message };
  if (
    err instanceof Stripe.errors.StripeInvalidRequestError ||
    err instanceof Stripe.errors.StripeCardError ||
    err instanceof Stripe.errors.StripeIdempotencyError
  )
    return { status: "rejected", code: err.code ?? rejectedCode, message, ...(err.param ? { param: err.param } : {}) };
  // Connection errors, timeouts, rate limits, Stripe's 5xx: try again later.
  return { status: "retryable", code: "stripe_unavailable", message };
}

/** When to poll next (epoch ms) after poll `n` (0 = the first), never after `expiresAt` + 5 s. */
export function nextPoll(now: number, n: number, expiresAt: number | null): number {
  const at = now + POLL_DELAYS_S[Math.min(n, POLL_DELAYS_S.length - 1)]! * 1000;
  return expiresAt === null ? at : Math.min(at, Math.max(expiresAt + 5000, now + 1000));
}

/** True when Stripe answered a create from its idempotency cache (`Idempotent-Replayed: true`): the object existed. */
export function replayedOf(obj: { lastResponse?: { headers?: Record<string, string> } }): boolean {
  // The fetch client hands the response's Headers object on, whatever the type says.
  const h = obj.lastResponse?.headers as Headers | Record<string, string> | undefined;
  return (h instanceof Headers ? h.get("idempotent-replayed") : h?.["idempotent-replayed"]) === "true";
}

export const idOf = (v: string | { id: string } | null | undefined): string | null =>
  v == null ? null : typeof v === "string" ? v : v.id;

/**
 * Brand, last four, installments and Stripe's fee of a paid charge (what the dashboard shows; the fee is stored, never
 * returned).
 */
export function chargeFacts(pi: Stripe.PaymentIntent | null): Record<string, unknown> {
  const facts: Record<string, unknown> = {};
  if (!pi) return facts;
  facts.paymentIntent = pi.id;
  const charge = typeof pi.latest_charge === "object" ? pi.latest_charge : null;
  if (!charge) return facts;
  facts.charge = charge.id;
  const card = charge.payment_method_details?.card;
  if (card) {
    facts.brand = card.brand ?? null;
    facts.last4 = card.last4 ?? null;
    const plan = card.installments?.plan;
    if (plan && plan.type === "fixed_count" && plan.count) facts.installments = plan.count;
  }
  const bt = typeof charge.balance_transaction === "object" ? charge.balance_transaction : null;
  if (bt) facts.providerFee = bt.fee;
  return facts;
}

/** The transaction a Stripe object names (client_reference_id or our metadata), or undefined. */
export function transactionRefOf(obj: {
  client_reference_id?: string | null;
  metadata?: Stripe.Metadata | null;
}): string | undefined {
  return obj.client_reference_id ?? obj.metadata?.cofre_transaction_id ?? undefined;
}

/** A Stripe Refund as a refund outcome (see the status table). */
export function refundOutcome(r: Stripe.Refund): RefundOutcome {
  switch (r.status) {
    case "succeeded":
      return { status: "settled" };
    case "failed":
    case "canceled":
      return {
        status: "rejected",
        code: `stripe_refund_${r.status}`,
        message: `Stripe ${r.status === "failed" ? "could not make" : "canceled"} the refund${r.failure_reason ? ` (${r.failure_reason})` : ""}.`,
        reason: r.failure_reason ?? r.status,
      };
    default:
      return { status: "pending", inProgress: true };
  }
}
