/**
 * stripe-sim object builders: every document the API answers is built here and checked by `tsc`
 * against the official `stripe` package's types (`satisfies Stripe.X`), with the fields Stripe
 * marks required filled honestly (null where this simulator has nothing). Amounts in centavos,
 * times in Unix seconds. Fees (balance transactions) follow Stripe Brazil's list prices: card
 * 3.99% + R$0.39, boleto R$3.45 (issue 26: the provider fee Cofre stores).
 */
import type Stripe from "stripe";
import { simId } from "./ids";

/** The `api_version` events carry (the stripe package's pinned version). */
export const SIM_API_VERSION = "2026-10-28.endive";

/** Card fee in centavos for an amount in centavos: 3.99% + 39, rounded half up. */
export function cardFee(amount: number): number {
  return Math.round((amount * 399) / 10_000) + 39;
}
/** Boleto fee in centavos. */
export const BOLETO_FEE = 345;

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

export interface BillingInput {
  name: string;
  email: string;
  address: { line1: string; line2: string | null; city: string; state: string; postal_code: string; country: string };
  tax_id: string;
}

export interface PaymentIntentInput {
  amount: number;
  currency: string;
  payment_method_types: string[];
  /** As sent in `allowed_payment_method_types`, or null. */
  allowed_payment_method_types?: Stripe.PaymentIntent.AllowedPaymentMethodType[] | null;
  metadata: Record<string, string>;
  description: string | null;
  created: number;
  receipt_email: string | null;
}

export function paymentIntent(p: PaymentIntentInput) {
  const id = simId("pi");
  return {
    id,
    object: "payment_intent",
    allowed_payment_method_types: p.allowed_payment_method_types ?? null,
    amount: p.amount,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null as number | null,
    cancellation_reason: null as Stripe.PaymentIntent.CancellationReason | null,
    capture_method: "automatic",
    client_secret: `${id}_secret_${simId("s").slice(2, 20)}`,
    confirmation_method: "automatic",
    created: p.created,
    currency: p.currency,
    customer: null,
    customer_account: null,
    description: p.description,
    excluded_payment_method_types: null,
    last_payment_error: null as Stripe.PaymentIntent.LastPaymentError | null,
    latest_charge: null as string | null,
    livemode: false,
    managed_payments: null,
    metadata: p.metadata,
    next_action: null as Stripe.PaymentIntent.NextAction | null,
    on_behalf_of: null,
    payment_method: null as string | null,
    payment_method_configuration_details: null,
    payment_method_options: null as Stripe.PaymentIntent.PaymentMethodOptions | null,
    payment_method_types: p.payment_method_types,
    payment_record: null,
    processing: null,
    receipt_email: p.receipt_email,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: "requires_payment_method" as Stripe.PaymentIntent.Status,
    transfer_group: null,
  } satisfies Stripe.PaymentIntent;
}
export type PaymentIntentDoc = ReturnType<typeof paymentIntent>;

/** A card as the hosted page took it (never the full number). */
export interface CardUsed {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  funding: string;
  fingerprint: string;
}

export function balanceTransaction(p: {
  amount: number;
  fee: number;
  source: string;
  type: "charge" | "refund" | "adjustment";
  created: number;
  description: string | null;
}) {
  const net = p.amount - p.fee;
  return {
    id: simId("txn"),
    object: "balance_transaction",
    amount: p.amount,
    available_on: p.created + 2 * 86_400,
    balance_type: "payments",
    created: p.created,
    currency: "brl",
    description: p.description,
    exchange_rate: null,
    fee: p.fee,
    fee_details:
      p.fee === 0
        ? []
        : [
            {
              amount: p.fee,
              application: null,
              currency: "brl",
              description: "Stripe processing fees",
              type: "stripe_fee",
            },
          ],
    net,
    reporting_category: p.type === "charge" ? "charge" : p.type === "refund" ? "refund" : "dispute",
    source: p.source,
    status: "pending",
    type: p.type,
  } satisfies Stripe.BalanceTransaction;
}
export type BalanceTransactionDoc = ReturnType<typeof balanceTransaction>;

export function charge(p: {
  pi: PaymentIntentDoc;
  created: number;
  card: CardUsed | null;
  boleto: BillingInput | null;
  balance_transaction: string;
  payment_method: string;
  origin: string;
}) {
  const id = simId("ch");
  const billing: Stripe.Charge.BillingDetails = p.boleto
    ? {
        address: { ...p.boleto.address },
        email: p.boleto.email,
        name: p.boleto.name,
        phone: null,
        tax_id: p.boleto.tax_id,
      }
    : { address: null, email: p.pi.receipt_email, name: null, phone: null, tax_id: null };
  const details: Stripe.Charge.PaymentMethodDetails = p.card
    ? {
        type: "card",
        card: {
          amount_authorized: p.pi.amount,
          authorization_code: String(100000 + (p.pi.amount % 900000)),
          brand: p.card.brand,
          checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
          country: "BR",
          electronic_commerce_indicator: null,
          exp_month: p.card.exp_month,
          exp_year: p.card.exp_year,
          fingerprint: p.card.fingerprint,
          funding: p.card.funding,
          installments: null,
          last4: p.card.last4,
          mandate: null,
          network: p.card.brand,
          network_token: { used: false },
          network_transaction_id: null,
          three_d_secure: null,
          wallet: null,
        } as Stripe.Charge.PaymentMethodDetails.Card,
      }
    : { type: "boleto", boleto: { tax_id: p.boleto?.tax_id ?? "" } };
  return {
    id,
    object: "charge",
    amount: p.pi.amount,
    amount_captured: p.pi.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: p.balance_transaction as string | null,
    billing_details: billing,
    calculated_statement_descriptor: "COFRE SIM",
    captured: true,
    created: p.created,
    currency: p.pi.currency,
    customer: null,
    description: p.pi.description,
    disputed: false as boolean,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: p.pi.metadata,
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: "approved_by_network",
      reason: null,
      risk_level: "normal",
      seller_message: "Payment complete.",
      type: "authorized",
    },
    paid: true,
    payment_intent: p.pi.id as string | null,
    payment_method: p.payment_method,
    payment_method_details: details,
    receipt_email: p.pi.receipt_email,
    receipt_number: null,
    receipt_url: `${p.origin}/receipts/${id}`,
    refunded: false as boolean,
    refunds: { object: "list", data: [] as RefundDoc[], has_more: false, url: `/v1/charges/${id}/refunds` },
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: "succeeded" as Stripe.Charge.Status,
    transfer_data: null,
    transfer_group: null,
  } satisfies Stripe.Charge;
}
export type ChargeDoc = ReturnType<typeof charge>;

export function refund(p: {
  amount: number;
  charge: string;
  payment_intent: string;
  metadata: Record<string, string>;
  reason: Stripe.Refund.Reason | null;
  created: number;
  payment_method: string;
}) {
  return {
    id: simId("re"),
    object: "refund",
    amount: p.amount,
    balance_transaction: null as string | null,
    charge: p.charge,
    created: p.created,
    currency: "brl",
    customer: null,
    customer_account: null,
    destination_details: {
      type: "card",
      card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" },
    } as Stripe.Refund.DestinationDetails,
    failure_reason: undefined as string | undefined,
    failure_balance_transaction: undefined as string | undefined,
    metadata: p.metadata,
    payment_intent: p.payment_intent,
    payment_method: p.payment_method,
    reason: p.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: "pending" as string | null,
    transfer_reversal: null,
  } satisfies Stripe.Refund;
}
export type RefundDoc = ReturnType<typeof refund>;

export function dispute(p: {
  charge: ChargeDoc;
  reason: string;
  created: number;
  balance_transaction: BalanceTransactionDoc;
}) {
  return {
    id: simId("du"),
    object: "dispute",
    amount: p.charge.amount,
    balance_transactions: [p.balance_transaction] as Stripe.BalanceTransaction[],
    charge: p.charge.id,
    created: p.created,
    currency: p.charge.currency,
    enhanced_eligibility_types: [],
    evidence: {
      access_activity_log: null,
      billing_address: null,
      cancellation_policy: null,
      cancellation_policy_disclosure: null,
      cancellation_rebuttal: null,
      customer_communication: null,
      customer_email_address: null,
      customer_name: null,
      customer_purchase_ip: null,
      customer_signature: null,
      duplicate_charge_documentation: null,
      duplicate_charge_explanation: null,
      duplicate_charge_id: null,
      enhanced_evidence: {},
      product_description: null,
      receipt: null,
      refund_policy: null,
      refund_policy_disclosure: null,
      refund_refusal_explanation: null,
      service_date: null,
      service_documentation: null,
      shipping_address: null,
      shipping_carrier: null,
      shipping_date: null,
      shipping_documentation: null,
      shipping_tracking_number: null,
      uncategorized_file: null,
      uncategorized_text: null,
    },
    evidence_details: {
      due_by: p.created + 7 * 86_400,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: "not_submitted",
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: p.charge.payment_intent,
    reason: p.reason,
    status: "needs_response" as Stripe.Dispute.Status,
  } satisfies Stripe.Dispute;
}
export type DisputeDoc = ReturnType<typeof dispute>;

/** The event types the simulator sends (a subset of `Stripe.Event.Type`). */
export type SimEventType = Extract<
  Stripe.Event.Type,
  | "checkout.session.completed"
  | "checkout.session.expired"
  | "checkout.session.async_payment_succeeded"
  | "checkout.session.async_payment_failed"
  | "payment_intent.succeeded"
  | "payment_intent.payment_failed"
  | "payment_intent.canceled"
  | "charge.refunded"
  | "charge.refund.updated"
  | "charge.dispute.created"
  | "charge.dispute.closed"
>;

/** The object each sent event type carries in `data.object`. */
export interface SimEventObjects {
  "checkout.session.completed": SessionDoc;
  "checkout.session.expired": SessionDoc;
  "checkout.session.async_payment_succeeded": SessionDoc;
  "checkout.session.async_payment_failed": SessionDoc;
  "payment_intent.succeeded": PaymentIntentDoc;
  "payment_intent.payment_failed": PaymentIntentDoc;
  "payment_intent.canceled": PaymentIntentDoc;
  "charge.refunded": ChargeDoc;
  "charge.refund.updated": RefundDoc;
  "charge.dispute.created": DisputeDoc;
  "charge.dispute.closed": DisputeDoc;
}

/**
 * Compile-time proof that each object above is what the `stripe` package's event of that type
 * carries in `data.object` (tsc fails here when a builder drifts from the event's type).
 */
type EventObjectMatches = {
  [K in SimEventType]: SimEventObjects[K] extends Extract<Stripe.Event, { type: K }>["data"]["object"] ? true : false;
};
export const EVENT_OBJECTS_MATCH: EventObjectMatches = {
  "checkout.session.completed": true,
  "checkout.session.expired": true,
  "checkout.session.async_payment_succeeded": true,
  "checkout.session.async_payment_failed": true,
  "payment_intent.succeeded": true,
  "payment_intent.payment_failed": true,
  "payment_intent.canceled": true,
  "charge.refunded": true,
  "charge.refund.updated": true,
  "charge.dispute.created": true,
  "charge.dispute.closed": true,
};

/** An event of `type` carrying `object` (its `data.object`), as stored and delivered. */
export function event<T extends SimEventType>(p: {
  type: T;
  object: SimEventObjects[T];
  created: number;
  account: string;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null } | null;
}): Stripe.Event {
  const e = {
    id: simId("evt"),
    object: "event" as const,
    api_version: SIM_API_VERSION,
    created: p.created,
    data: { object: p.object },
    livemode: false,
    pending_webhooks: p.pending_webhooks,
    request: p.request,
    type: p.type,
  };
  // The union does not narrow on a generic `type`; EVENT_OBJECTS_MATCH proves each pairing.
  return e as unknown as Stripe.Event;
}
