/** Stripe card and boleto payments: creating and querying Checkout Sessions and boleto PaymentIntents. */
import type {
  CreateRequest,
  PaymentOutcome,
  ProviderContext,
  ProviderFailure,
  TransactionRow,
} from "../../domain/providers/types";
import { saoPauloDate } from "../../lib/calendar";
import { boletoBarcodeOfLine } from "./boleto";
import type { Stripe } from "./client";
import { chargeFacts, metadataOf, nextPoll, replayedOf } from "./outcomes";

/** Checkout Session lifetimes Stripe accepts (seconds from now). */
const SESSION_MIN_S = 30 * 60 + 60;
const SESSION_MAX_S = 24 * 3600;

/** Creates the card payment's hosted Checkout Session (idempotency key `cofre_cs_<transaction id>`). */
export async function createSession(
  ctx: ProviderContext,
  req: CreateRequest,
  stripe: Stripe,
): Promise<{ columns: Record<string, unknown>; details: Record<string, unknown>; replayed: boolean; id: string }> {
  const tx = req.transaction;
  const page = `${ctx.config.checkoutUrlBase}/${tx.id}`;
  const md = metadataOf(tx);
  const returnUrl = typeof md.returnUrl === "string" ? md.returnUrl : null;
  // The session lives as long as the transaction (Pix window), within what Stripe accepts. Every
  // parameter derives from the stored row (not from now), so a retry sends the same request
  // under the same idempotency key and Stripe answers the session it already made.
  const wanted = tx.expiresAt === null ? SESSION_MAX_S : Math.round((tx.expiresAt - tx.createdAt) / 1000);
  const lifetime = Math.min(SESSION_MAX_S, Math.max(SESSION_MIN_S, wanted));
  const description = typeof md.description === "string" && md.description ? md.description.slice(0, 500) : null;
  const session = await stripe.checkout.sessions.create(
    {
      mode: "payment",
      line_items: [
        {
          price_data: {
            currency: "brl",
            unit_amount: tx.amount,
            product_data: { name: req.merchant.name || "Pagamento", ...(description ? { description } : {}) },
          },
          quantity: 1,
        },
      ],
      success_url: returnUrl ?? `${page}?retorno=1`,
      cancel_url: page,
      client_reference_id: tx.id,
      metadata: { cofre_transaction_id: tx.id },
      payment_intent_data: { metadata: { cofre_transaction_id: tx.id } },
      expires_at: Math.floor(tx.createdAt / 1000) + lifetime,
      ...(tx.customerEmail ? { customer_email: tx.customerEmail } : {}),
      locale: "pt-BR",
    },
    { idempotencyKey: `cofre_cs_${tx.id}` },
  );
  return {
    columns: tx.expiresAt === null && session.expires_at ? { expiresAt: session.expires_at * 1000 } : {},
    details: { session: session.id, sessionUrl: session.url, returnUrl },
    replayed: replayedOf(session),
    id: session.id,
  };
}

/**
 * Creates the boleto PaymentIntent, confirmed at once (idempotency key `cofre_pi_<transaction id>`),
 * after checking the payer data Stripe requires; answers the voucher (line, barcode, PDF, due date).
 */
export async function createBoleto(
  _ctx: ProviderContext,
  req: CreateRequest,
  stripe: Stripe,
): Promise<{ details: Record<string, unknown>; replayed: boolean; id: string } | ProviderFailure> {
  const tx = req.transaction;
  const address = metadataOf(tx).billingAddress as Record<string, unknown> | undefined;
  const missing = (param: string, what: string): ProviderFailure => ({
    status: "invalid",
    param,
    code: "parameter_missing",
    message: `A live boleto needs ${what} (${param}).`,
  });
  if (!tx.customerName) return missing("customerName", "the payer's name");
  if (!tx.customerEmail) return missing("customerEmail", "the payer's e-mail");
  if (!tx.customerDocument || !/^(\d{11}|\d{14})$/.test(tx.customerDocument))
    return missing("customerDocument", "the payer's CPF or CNPJ");
  if (!address || typeof address !== "object") return missing("metadata.billingAddress", "the payer's billing address");
  for (const f of ["line1", "city", "state", "postalCode"] as const)
    if (typeof address[f] !== "string" || !(address[f] as string).trim())
      return missing(`metadata.billingAddress.${f}`, `the billing address's ${f}`);
  // `payment_method_types` is what Stripe's PaymentIntent API takes for a boleto (the package's
  // types of this API version list only its newer `allowed_payment_method_types`).
  const params = {
    amount: tx.amount,
    currency: "brl",
    payment_method_types: ["boleto"],
    payment_method_data: {
      type: "boleto",
      billing_details: {
        name: tx.customerName,
        email: tx.customerEmail,
        address: {
          line1: address.line1 as string,
          city: address.city as string,
          state: address.state as string,
          postal_code: address.postalCode as string,
          country: "BR",
        },
      },
      boleto: { tax_id: tx.customerDocument },
    },
    confirm: true,
    metadata: { cofre_transaction_id: tx.id },
  } as Stripe.PaymentIntentCreateParams;
  const pi = await stripe.paymentIntents.create(params, { idempotencyKey: `cofre_pi_${tx.id}` });
  const shown = pi.next_action?.boleto_display_details;
  if (!shown?.number)
    return {
      status: "retryable",
      code: "stripe_no_voucher",
      message: "Stripe returned the boleto without its voucher.",
    };
  const line = shown.number.replace(/\D/g, "");
  const details = {
    paymentIntent: pi.id,
    line,
    barcode: boletoBarcodeOfLine(line),
    pdfUrl: shown.pdf ?? null,
    voucherUrl: shown.hosted_voucher_url ?? null,
    expiresAt: shown.expires_at ? new Date(shown.expires_at * 1000).toISOString() : null,
    // The due day as the payer reads it (São Paulo calendar date of Stripe's expiry).
    dueDate: shown.expires_at ? saoPauloDate(shown.expires_at * 1000) : null,
  };
  return { details, replayed: replayedOf(pi), id: pi.id };
}

/**
 * The card payment's outcome from its Checkout Session; a session still open past the transaction's
 * expiry is expired at Stripe first.
 */
export async function querySession(
  ctx: ProviderContext,
  tx: TransactionRow,
  session: string,
  n: number,
  stripe: Stripe,
): Promise<PaymentOutcome> {
  const s = await stripe.checkout.sessions.retrieve(session, {
    expand: ["payment_intent", "payment_intent.latest_charge", "payment_intent.latest_charge.balance_transaction"],
  });
  const pi = typeof s.payment_intent === "object" ? s.payment_intent : null;
  if (s.status === "complete" && s.payment_status === "paid")
    return {
      status: "settled",
      method: "CREDIT_CARD",
      amount: s.amount_total ?? tx.amount,
      details: chargeFacts(pi),
    };
  if (s.status === "expired") return { status: "expired" };
  const now = ctx.clock.nowMs();
  if (s.status === "open" && tx.expiresAt !== null && now >= tx.expiresAt) {
    // The transaction's window is over (a Pix window shorter than Stripe's minimum): close the session first.
    try {
      await stripe.checkout.sessions.expire(session);
      return { status: "expired" };
    } catch (err) {
      const again = await stripe.checkout.sessions.retrieve(session);
      if (again.status === "expired") return { status: "expired" };
      if (again.status === "complete") return querySession(ctx, tx, session, n, stripe);
      throw err;
    }
  }
  return {
    status: "pending",
    processing: pi?.status === "processing",
    checkAt: nextPoll(now, n, tx.expiresAt),
    memo: { poll: n + 1 },
  };
}

/** The boleto payment's outcome from its PaymentIntent. */
export async function queryBoleto(
  ctx: ProviderContext,
  id: string,
  n: number,
  stripe: Stripe,
): Promise<PaymentOutcome> {
  const pi = await stripe.paymentIntents.retrieve(id, {
    expand: ["latest_charge", "latest_charge.balance_transaction"],
  });
  if (pi.status === "succeeded") {
    const facts = chargeFacts(pi);
    return {
      status: "settled",
      method: "BOLETO",
      amount: pi.amount_received || pi.amount,
      details: { providerFee: facts.providerFee ?? null, charge: facts.charge ?? null },
    };
  }
  if (pi.status === "canceled" || pi.status === "requires_payment_method") return { status: "expired" };
  return {
    status: "pending",
    processing: pi.status === "processing",
    checkAt: nextPoll(ctx.clock.nowMs(), n, null),
    memo: { poll: n + 1 },
  };
}
