/** stripe-sim events: the event types sent, the object each carries, and the event builder. */
import type Stripe from "stripe";
import { simId } from "./ids";
import type { DisputeDoc } from "./dispute-objects";
import type { SessionDoc } from "./objects";
import type { ChargeDoc, PaymentIntentDoc, RefundDoc } from "./payment-objects";

/** The `api_version` events carry (the stripe package's pinned version). */
export const SIM_API_VERSION = "2026-10-28.endive";

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
