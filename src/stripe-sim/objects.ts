/**
 * stripe-sim object builders for the account, webhook endpoints and Checkout Sessions. Every
 * document the API answers is built in `objects.ts`, `payment-objects.ts`, `dispute-objects.ts` or
 * `event-objects.ts` and checked by `tsc` against the official `stripe` package's types
 * (`satisfies Stripe.X`), with the fields Stripe marks required filled honestly (null where this
 * simulator has nothing). Amounts in centavos, times in Unix seconds.
 */
import type Stripe from "stripe";
import { simId } from "./ids";

/** The simulated Stripe account (`GET /v1/account`). */
export function account(id: string, email: string, created: number) {
  return {
    id,
    object: "account",
    business_profile: null,
    business_type: null,
    charges_enabled: true,
    country: "BR",
    created,
    default_currency: "brl",
    details_submitted: true,
    email,
    payouts_enabled: true,
    settings: null,
    type: "standard",
  } satisfies Stripe.Account;
}

/** A webhook endpoint as registered through `POST /v1/webhook_endpoints`. */
export function webhookEndpoint(p: {
  url: string;
  enabled_events: string[];
  description: string | null;
  metadata: Record<string, string>;
  api_version: string | null;
  created: number;
}) {
  return {
    id: simId("we"),
    object: "webhook_endpoint",
    api_version: p.api_version,
    application: null,
    created: p.created,
    description: p.description,
    enabled_events: p.enabled_events,
    livemode: false,
    metadata: p.metadata,
    status: "enabled",
    url: p.url,
  } satisfies Stripe.WebhookEndpoint;
}

export interface SessionInput {
  amount: number;
  currency: string;
  success_url: string;
  cancel_url: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  expires_at: number;
  payment_method_types: string[];
  /** As sent in `allowed_payment_method_types` (null when the legacy `payment_method_types` was used). */
  allowed_payment_method_types: string[] | null;
  customer_email: string | null;
  locale: Stripe.Checkout.Session.Locale | null;
  created: number;
  origin: string;
}

/** A new, open payment-mode Checkout Session whose hosted page is served at `origin`. */
export function checkoutSession(p: SessionInput) {
  const id = simId("cs_test");
  return {
    id,
    object: "checkout.session",
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: p.allowed_payment_method_types,
    amount_subtotal: p.amount,
    amount_total: p.amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: p.cancel_url,
    client_reference_id: p.client_reference_id,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: p.created,
    currency: p.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: null,
    customer_account: null,
    customer_creation: "if_required",
    customer_details: null as Stripe.Checkout.Session.CustomerDetails | null,
    customer_email: p.customer_email,
    discounts: [],
    expires_at: p.expires_at,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: p.locale,
    managed_payments: null,
    metadata: p.metadata,
    mode: "payment",
    origin_context: null,
    payment_intent: null as string | null,
    payment_link: null,
    payment_method_collection: "if_required",
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: p.payment_method_types,
    payment_status: "unpaid" as Stripe.Checkout.Session.PaymentStatus,
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: "open" as Stripe.Checkout.Session.Status,
    submit_type: null,
    subscription: null,
    success_url: p.success_url,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted_page",
    url: `${p.origin}/pay/${id}` as string | null,
    wallet_options: null,
  } satisfies Stripe.Checkout.Session;
}
export type SessionDoc = ReturnType<typeof checkoutSession>;
