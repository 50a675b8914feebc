/**
 * stripe-sim Checkout Sessions (ROUTES.md): `POST /v1/checkout/sessions` (mode `payment`, BRL
 * price_data line items), `GET /v1/checkout/sessions[/:id]`, `POST .../:id/expire`, and what the
 * hosted page does to a session: a card attempt creates its PaymentIntent (Stripe creates it at
 * the first confirmation), paid -> `complete`/`paid` + `checkout.session.completed`; declined ->
 * stays `open`; expiry (at `expires_at`, by the API or a control route) -> `expired` +
 * `checkout.session.expired`, its unpaid PaymentIntent canceled.
 */
import type Stripe from "stripe";
import { type ApiCtx, type Reply, type SimEnv, load, loadAny, nowSec } from "./core";
import { badState, invalid, missing } from "./errors";
import { expand } from "./expand";
import { checkoutSession, type SessionDoc } from "./objects";
import { type CardUsed, paymentIntent } from "./payment-objects";
import { cancelPaymentIntent, failPaymentIntent, type PiExtra, piWithExtra, succeedPaymentIntent } from "./payments";
import { emit } from "./webhooks";
import type { CardBehaviour } from "./cards";
import { listPage } from "./lists";

const LOCALES = ["auto", "pt-BR", "pt", "en", "es"];

/** Simulator-only facts about a session. */
export interface SessionExtra {
  /** `payment_intent_data` of the create call. */
  pi_data?: { metadata: Record<string, string>; description: string | null };
  /** A card waiting for its 3-D Secure answer. */
  pending_3ds?: CardUsed;
}

/** `POST /v1/checkout/sessions`. */
export function createSession(ctx: ApiCtx): Reply {
  const f = ctx.form.only([
    "mode",
    "line_items",
    "success_url",
    "cancel_url",
    "client_reference_id",
    "metadata",
    "expires_at",
    "allowed_payment_method_types",
    "payment_method_types",
    "customer_email",
    "locale",
    "payment_intent_data",
    "currency",
    "submit_type",
  ]);
  const mode = f.reqStr("mode");
  if (mode !== "payment") throw invalid("mode", `The simulator only offers mode=payment (got ${mode}).`);
  const items = f.objs("line_items");
  if (!items || items.length === 0) throw missing("line_items");
  let amount = 0;
  let currency: string | null = null;
  for (const li of items) {
    li.only(["price_data", "quantity"]);
    const qty = li.int("quantity") ?? 1;
    if (qty < 1) throw invalid(`${li.name("quantity")}`, "Quantity must be at least 1.");
    const pd = li.reqObj("price_data").only(["currency", "unit_amount", "product_data", "unit_amount_decimal"]);
    const cur = pd.reqStr("currency").toLowerCase();
    if (cur !== "brl")
      throw invalid(pd.name("currency"), `The simulator only takes brl (got ${cur}).`, "parameter_invalid");
    if (currency !== null && currency !== cur)
      throw invalid(pd.name("currency"), "All line items must have the same currency.");
    currency = cur;
    const unit = pd.reqInt("unit_amount");
    if (unit < 50) throw invalid(pd.name("unit_amount"), "Amount must be at least R$0.50 brl.", "amount_too_small");
    pd.reqObj("product_data").only(["name", "description", "images", "metadata"]).reqStr("name");
    amount += unit * qty;
  }
  if (amount > 99_999_999) throw invalid("line_items", "Amount must be no more than R$999,999.99.", "amount_too_large");
  const now = nowSec(ctx.env);
  const expiresAt = f.int("expires_at") ?? now + 86_400;
  if (expiresAt < now + 1800 || expiresAt > now + 86_400)
    throw invalid(
      "expires_at",
      "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
    );
  const typesParam = f.has("allowed_payment_method_types") ? "allowed_payment_method_types" : "payment_method_types";
  const types = f.strs(typesParam) ?? ["card"];
  for (const t of types)
    if (t !== "card" && t !== "boleto")
      throw invalid(typesParam, `The payment method type provided: ${t} is invalid in the simulator (card, boleto).`);
  const locale = f.str("locale") ?? null;
  if (locale !== null && !LOCALES.includes(locale)) throw invalid("locale", `Invalid locale: ${locale}`);
  const pid = f
    .obj("payment_intent_data")
    ?.only(["metadata", "description", "statement_descriptor_suffix", "statement_descriptor"]);
  const successUrl = f.reqStr("success_url");
  for (const [name, url] of [
    ["success_url", successUrl],
    ["cancel_url", f.str("cancel_url")],
  ] as const) {
    if (url === undefined) continue;
    try {
      const u = new URL(url.replace("{CHECKOUT_SESSION_ID}", "x"));
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
    } catch {
      throw invalid(name, "Not a valid URL", "url_invalid");
    }
  }
  const session = checkoutSession({
    amount,
    currency: currency!,
    success_url: successUrl,
    cancel_url: f.str("cancel_url") ?? null,
    client_reference_id: f.str("client_reference_id") ?? null,
    metadata: f.metadata() ?? {},
    expires_at: expiresAt,
    payment_method_types: types,
    allowed_payment_method_types: f.has("allowed_payment_method_types") ? types : null,
    customer_email: f.str("customer_email") ?? null,
    locale: locale as Stripe.Checkout.Session.Locale | null,
    created: now,
    origin: ctx.env.origin,
  });
  const extra: SessionExtra = {
    pi_data: { metadata: pid?.metadata() ?? {}, description: pid?.str("description") ?? null },
  };
  ctx.env.store.tx(() => {
    ctx.env.store.insert(ctx.account.id, "checkout.session", session, extra);
    ctx.env.store.setDeadline(session.id, session.expires_at);
  });
  return { status: 200, body: expand(ctx.env, ctx.account.id, session, f.expand()) };
}

/** `GET /v1/checkout/sessions/:id`. */
export function getSession(ctx: ApiCtx): Reply {
  const s = load(ctx.env, ctx.account.id, "checkout.session", ctx.params.id!);
  return { status: 200, body: expand(ctx.env, ctx.account.id, s, ctx.form.expand()) };
}

/** `GET /v1/checkout/sessions`. */
export function listSessions(ctx: ApiCtx): Reply {
  const f = ctx.form.only(["limit", "starting_after", "ending_before", "payment_intent", "status", "created"]);
  const pi = f.str("payment_intent");
  const status = f.str("status");
  const rows =
    pi !== undefined
      ? ctx.env.store.listWhere(ctx.account.id, "checkout.session", "payment_intent", pi)
      : ctx.env.store.list(ctx.account.id, "checkout.session");
  const docs = rows
    .map((r) => JSON.parse(r.doc) as SessionDoc)
    .filter((s) => status === undefined || s.status === status);
  return { status: 200, body: listPage(ctx, docs, "/v1/checkout/sessions") };
}

/** `POST /v1/checkout/sessions/:id/expire`. */
export function expireSessionRoute(ctx: ApiCtx): Reply {
  ctx.form.only([]);
  const s = load(ctx.env, ctx.account.id, "checkout.session", ctx.params.id!);
  if (s.status !== "open")
    throw badState("checkout_session_not_open", "Only Checkout Sessions with a status of `open` can be expired.");
  return {
    status: 200,
    body: expand(ctx.env, ctx.account.id, expireSession(ctx.env, ctx.account.id, s), ctx.form.expand()),
  };
}

/** Expires an open session (and cancels its unpaid PaymentIntent). */
export function expireSession(env: SimEnv, account: string, s: SessionDoc): SessionDoc {
  const next: SessionDoc = { ...s, status: "expired", url: null };
  env.store.tx(() => {
    env.store.update(next);
    env.store.setDeadline(s.id, null);
  });
  if (s.payment_intent) {
    const pi = piWithExtra(env, s.payment_intent);
    if (pi && pi.doc.status !== "succeeded" && pi.doc.status !== "canceled")
      cancelPaymentIntent(env, account, pi.doc, "abandoned");
  }
  emit(env, account, "checkout.session.expired", next);
  return next;
}

/** The session with its extra, or null. */
export function sessionWithExtra(
  env: SimEnv,
  id: string,
): { doc: SessionDoc; extra: SessionExtra; account: string } | null {
  return loadAny<"checkout.session", SessionExtra>(env, "checkout.session", id);
}

function ensurePaymentIntent(
  env: SimEnv,
  account: string,
  s: SessionDoc,
  extra: SessionExtra,
): { doc: ReturnType<typeof paymentIntent>; extra: PiExtra } {
  if (s.payment_intent) {
    const pi = piWithExtra(env, s.payment_intent);
    if (pi) return { doc: pi.doc, extra: pi.extra };
  }
  const pi = paymentIntent({
    amount: s.amount_total ?? 0,
    currency: s.currency ?? "brl",
    payment_method_types: ["card"],
    metadata: extra.pi_data?.metadata ?? {},
    description: extra.pi_data?.description ?? null,
    created: nowSec(env),
    receipt_email: s.customer_email,
  });
  const piExtra: PiExtra = { session: s.id };
  env.store.tx(() => {
    env.store.insert(account, "payment_intent", pi, piExtra);
    env.store.update({ ...s, payment_intent: pi.id });
  });
  return { doc: pi, extra: piExtra };
}

export type CardOutcome =
  | { kind: "paid"; session: SessionDoc }
  | { kind: "declined"; message: string }
  | { kind: "3ds" };

/**
 * A card submitted on the hosted page for an open session (`behaviour` from cards.ts; `after3ds`
 * when the payer answered the 3-D Secure step: true approved, false failed).
 */
export function attemptCard(
  env: SimEnv,
  sessionId: string,
  card: CardUsed,
  behaviour: CardBehaviour,
  after3ds?: boolean,
): CardOutcome {
  const found = sessionWithExtra(env, sessionId)!;
  const { account } = found;
  let s = found.doc;
  const pi = ensurePaymentIntent(env, account, s, found.extra);
  s = sessionWithExtra(env, sessionId)!.doc;
  const piExtra: PiExtra = { ...pi.extra, card };
  const paymentMethod = { ...pi.doc, payment_method: `pm_${card.fingerprint}` };
  if (behaviour === "3ds" && after3ds === undefined) {
    env.store.update({ ...pi.doc, status: "requires_action", next_action: { type: "use_stripe_sdk" } }, piExtra);
    env.store.update(s, { ...found.extra, pending_3ds: card });
    return { kind: "3ds" };
  }
  if (behaviour === "3ds") env.store.update(s, { ...found.extra, pending_3ds: undefined });
  if (behaviour === "decline" || after3ds === false) {
    const declined = behaviour === "decline";
    failPaymentIntent(
      env,
      account,
      paymentMethod,
      piExtra,
      declined
        ? {
            type: "card_error",
            code: "card_declined",
            decline_code: "generic_decline",
            message: "Your card was declined.",
          }
        : {
            type: "invalid_request_error",
            code: "payment_intent_authentication_failure",
            message:
              "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
          },
    );
    return {
      kind: "declined",
      message: declined ? "Cartão recusado pelo emissor." : "A autenticação 3-D Secure falhou.",
    };
  }
  const paid = succeedPaymentIntent(env, account, paymentMethod, { ...piExtra, dispute: behaviour === "dispute" });
  const done: SessionDoc = {
    ...s,
    payment_intent: paid.id,
    status: "complete",
    payment_status: "paid",
    url: null,
    customer_details: {
      address: null,
      business_name: null,
      email: s.customer_email,
      individual_name: null,
      name: null,
      phone: null,
      tax_exempt: "none",
      tax_ids: [],
    },
  };
  env.store.tx(() => {
    env.store.update(done);
    env.store.setDeadline(done.id, null);
  });
  emit(env, account, "checkout.session.completed", done);
  return { kind: "paid", session: done };
}
