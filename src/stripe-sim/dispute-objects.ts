/** stripe-sim builder for disputes (`charge.dispute.*`), typed against `Stripe.Dispute`. */
import type Stripe from "stripe";
import { simId } from "./ids";
import type { BalanceTransactionDoc, ChargeDoc } from "./payment-objects";

/** A new dispute (`needs_response`) over the full amount of `charge`. */
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
