/**
 * stripe-sim builders for PaymentIntents (card and boleto), charges, balance transactions and
 * refunds, typed against the `stripe` package (`satisfies Stripe.X`). Fees (balance transactions)
 * follow Stripe Brazil's list prices: card 3.99% + R$0.39, boleto R$3.45 (issue 26: the provider
 * fee Cofre stores).
 */
import type Stripe from "stripe";
import { simId } from "./ids";

/** Card fee in centavos for an amount in centavos: 3.99% + 39, rounded half up. */
export function cardFee(amount: number): number {
  return Math.round((amount * 399) / 10_000) + 39;
}
/** Boleto fee in centavos. */
export const BOLETO_FEE = 345;

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

/** A new PaymentIntent awaiting a payment method. */
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

/** A pending balance transaction for a charge, refund or dispute adjustment, net of `fee`. */
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

/** The succeeded charge of `pi`, paid by card or boleto. */
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

/** A new, pending card refund of `amount` against `charge`. */
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
