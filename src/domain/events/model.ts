/**
 * The events' types (interface.md "Events"): the event names of each family, the scope an event is
 * emitted in, and the outbox row as the domain passes it on (./emit.ts stores it, the webhook
 * fan-out in src/domain/webhooks/fanout.ts reads it). Types only: importing it pulls in nothing.
 */

export type CanonicalType =
  | "charge.created"
  | "charge.paid"
  | "charge.failed"
  | "charge.expired"
  | "charge.refunded"
  | "payout.created"
  | "payout.paid"
  | "payout.failed";

export type LegacyType =
  | "payment.created"
  | "payment.completed"
  | "payment.failed"
  | "payment.expired"
  | "payment.refunded"
  | "payment.status_changed"
  | "withdrawal.created"
  | "withdrawal.completed"
  | "withdrawal.failed"
  | "withdrawal.status_changed";

export type MedType = "med_case.created" | "med_case.updated" | "med.resolved";

/** `data` of the legacy envelope `{event, data}` (interface.md "Legacy envelope"). */
export interface LegacyData {
  transactionId: string;
  amount: number;
  status: string;
  previousStatus: string;
  paidWith?: string | null;
  platformFee?: number | null;
  occurredAt: string;
  [extra: string]: unknown;
}

export interface EventScope {
  accountId: string;
  livemode: boolean;
  /** Raw id of the transaction/charge (enables the per-transaction `webhookUrl`). */
  transactionId?: string | null;
  /** The transaction's `webhookUrl` when the caller holds the row (saves a lookup); undefined = look it up. */
  webhookUrl?: string | null;
}

export interface StoredEvent {
  id: string;
  accountId: string;
  livemode: boolean;
  type: string;
  family: "canonical" | "legacy" | "med";
  body: string;
  transactionId: string | null;
  createdAt: number;
}
