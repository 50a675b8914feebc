/**
 * Statuses of the underlying transaction, their public charge mapping (interface.md "Transaction
 * status (payments group) and its public mapping"), and THE transaction state machine: the one
 * table every status change goes through (issue 25), and the status groups every other file
 * imports (the dashboard too: this module imports nothing, so it bundles alone).
 *
 *   from                                  trigger          to           events (canonical only with a charge view)
 *   (none)                                create           WAITING_PAYMENT  charge.created, payment.created
 *   WAITING_PAYMENT                       reject           REFUSED      charge.failed, payment.failed   (provider
 * refused the create)
 *   PENDING, WAITING_PAYMENT              processing       PROCESSING   payment.status_changed   (card / 3DS in flight)
 *   PENDING, WAITING_PAYMENT              hold             PROCESSING   payment.status_changed   (payer lock: document
 * not disclosed)
 *   PENDING, WAITING_PAYMENT, PROCESSING  settle           PAID | APPROVED  charge.paid, payment.completed   (APPROVED:
 * cards)
 *   PENDING, WAITING_PAYMENT, PROCESSING  decline          REFUSED      charge.failed, payment.failed
 *   PENDING, WAITING_PAYMENT              amount_mismatch  REFUSED      charge.failed, payment.failed   (live Pix of
 * another amount)
 *   PENDING, WAITING_PAYMENT              payer_mismatch   REFUNDED     payment.status_changed   (payer lock: returned)
 *   PENDING, WAITING_PAYMENT              expire           EXPIRED      charge.expired, payment.failed, payment.expired
 *   PENDING, WAITING_PAYMENT, PROCESSING  cancel           CANCELLED    charge.failed, payment.failed
 *   PAID, APPROVED                        refund           REFUNDED     payment.status_changed   (confirmed refunds
 * reach the amount)
 *   PAID, APPROVED                        dispute          DISPUTE      payment.failed   (MED opened; cards: dispute)
 *   PAID, APPROVED, DISPUTE               chargeback       CHARGEBACK   payment.failed   (cards, coming)
 *   DISPUTE, CHARGEBACK                   dispute_won      PAID | APPROVED  payment.status_changed   (back to the
 * status before)
 *
 * Who fires each trigger: create and reject `commitCreate` (create.ts); processing, hold, settle,
 * decline, amount_mismatch, payer_mismatch and expire `applySettlementNoticeIn` (settlement.ts:
 * provider outcomes, sandbox payer, expiry sweep); cancel `cancelPayment`; refund `confirmRefund`
 * (refunds/service.ts); dispute and dispute_won the MED service (med/service.ts). A create
 * checks its row with `assertTransition` before the insert; every later change writes through
 * `moveTransaction` (transition.ts): the table must allow (from, trigger, to), and the write is
 * conditional on the status read (`uow.charges.transition`), under `lockForChange`. The events
 * column is what `emitTransition` (events.ts) sends. Refund confirmations also send
 * `charge.refunded` + `payment.refunded` whether or not the status changes (events.ts).
 * FINAL statuses have no exit; DISPUTE and CHARGEBACK are not final (a case won goes back).
 * A Pix that arrives on a charge already OVER changes no status (it is returned: settlement.ts).
 */

export const TRANSACTION_STATUSES = [
  "PENDING",
  "WAITING_PAYMENT",
  "PROCESSING",
  "PAID",
  "APPROVED",
  "REFUSED",
  "CANCELLED",
  "EXPIRED",
  "REFUNDED",
  "CHARGEBACK",
  "DISPUTE",
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const CHARGE_STATUSES = [
  "pending",
  "processing",
  "paid",
  "failed",
  "expired",
  "cancelled",
  "refunded",
  "disputed",
] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** Public charge status of each transaction status (the spec's mapping table, verbatim). */
export const PUBLIC_STATUS: Record<TransactionStatus, ChargeStatus> = {
  PENDING: "pending",
  WAITING_PAYMENT: "pending",
  PROCESSING: "processing",
  PAID: "paid",
  APPROVED: "paid",
  REFUSED: "failed",
  CANCELLED: "cancelled",
  EXPIRED: "expired",
  REFUNDED: "refunded",
  CHARGEBACK: "disputed",
  DISPUTE: "disputed",
};

/** Transaction statuses that a public charge status filter selects (inverse of PUBLIC_STATUS). */
export function transactionStatusesFor(status: ChargeStatus): TransactionStatus[] {
  return TRANSACTION_STATUSES.filter((s) => PUBLIC_STATUS[s] === status);
}

export const PAYMENT_METHODS = ["PIX", "CREDIT_CARD", "MBWAY", "MULTIBANCO", "BOLETO", "CRYPTO"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

// -- status groups (defined here only; import them) -------------------------------------------

/** Waiting for the payer: the expiry sweep's statuses (and the partial index `tx_waiting_expiry_idx`). Cob ATIVA. */
export const WAITING: readonly TransactionStatus[] = ["PENDING", "WAITING_PAYMENT"];
/** Not decided yet: waiting or PROCESSING. A status check can still change them (outcomes.ts CHECKABLE). */
export const IN_FLIGHT: readonly TransactionStatus[] = [...WAITING, "PROCESSING"];
/** Statuses a transaction can still be cancelled from (interface.md transaction transitions). */
export const CANCELLABLE: readonly TransactionStatus[] = IN_FLIGHT;
/** Settled statuses: paid (non-card) or approved (card). Refundable and disputable. */
export const SETTLED: readonly TransactionStatus[] = ["PAID", "APPROVED"];
/** Statuses a refund may be requested from. */
export const REFUNDABLE: readonly TransactionStatus[] = SETTLED;
/** Statuses a MED (or a card dispute) may open on. */
export const DISPUTABLE: readonly TransactionStatus[] = SETTLED;
/** Under dispute (MED, card dispute or chargeback): public `disputed`, refunds blocked. */
export const DISPUTED: readonly TransactionStatus[] = ["DISPUTE", "CHARGEBACK"];
/** Counted by the velocity guard (extensions.md: pending, processing, paid). */
export const ALIVE: readonly TransactionStatus[] = [...IN_FLIGHT, ...SETTLED];
/** Over before any payment: a live Pix arriving now is returned (settlement.ts). Cob REMOVIDA_PELO_PSP. */
export const OVER: readonly TransactionStatus[] = ["EXPIRED", "CANCELLED", "REFUSED"];
/** Final: no transition leaves them. */
export const FINAL: readonly TransactionStatus[] = [...OVER, "REFUNDED"];
/** Statuses with a receipt (final outcomes, and settled ones). */
export const RECEIPTABLE: readonly TransactionStatus[] = [...SETTLED, ...FINAL];

/** True when `status` (any string: a stored value) is in `group`. */
export function isIn(group: readonly TransactionStatus[], status: string): boolean {
  return (group as readonly string[]).includes(status);
}

// -- the transition table -----------------------------------------------------------------------

/** What moves a transaction (the trigger column of the module header). */
export const TRANSACTION_TRIGGERS = [
  "create",
  "reject",
  "processing",
  "hold",
  "settle",
  "decline",
  "amount_mismatch",
  "payer_mismatch",
  "expire",
  "cancel",
  "refund",
  "dispute",
  "chargeback",
  "dispute_won",
] as const;
export type TransactionTrigger = (typeof TRANSACTION_TRIGGERS)[number];

/** An event type a transition sends: canonical `charge.*` (only with a charge view) or legacy `payment.*`. */
export type TransitionEventType =
  | "charge.created"
  | "charge.paid"
  | "charge.failed"
  | "charge.expired"
  | "payment.created"
  | "payment.completed"
  | "payment.failed"
  | "payment.expired"
  | "payment.status_changed";

/**
 * One row of the table: `trigger` moves a transaction in any of `from` (null: none yet) to `to`, sending `events` in
 * order.
 */
export interface TransactionTransition {
  readonly from: readonly (TransactionStatus | null)[];
  readonly trigger: TransactionTrigger;
  readonly to: TransactionStatus;
  readonly events: readonly TransitionEventType[];
}

const CREATED: readonly TransitionEventType[] = ["charge.created", "payment.created"];
const PAID_EVENTS: readonly TransitionEventType[] = ["charge.paid", "payment.completed"];
const FAILED_EVENTS: readonly TransitionEventType[] = ["charge.failed", "payment.failed"];
const CHANGED: readonly TransitionEventType[] = ["payment.status_changed"];

/** THE transaction state machine (the module header, row for row). Nothing else moves a transaction. */
export const TRANSACTION_TRANSITIONS: readonly TransactionTransition[] = [
  { from: [null], trigger: "create", to: "WAITING_PAYMENT", events: CREATED },
  { from: ["WAITING_PAYMENT"], trigger: "reject", to: "REFUSED", events: FAILED_EVENTS },
  { from: WAITING, trigger: "processing", to: "PROCESSING", events: CHANGED },
  { from: WAITING, trigger: "hold", to: "PROCESSING", events: CHANGED },
  { from: IN_FLIGHT, trigger: "settle", to: "PAID", events: PAID_EVENTS },
  { from: IN_FLIGHT, trigger: "settle", to: "APPROVED", events: PAID_EVENTS },
  { from: IN_FLIGHT, trigger: "decline", to: "REFUSED", events: FAILED_EVENTS },
  { from: WAITING, trigger: "amount_mismatch", to: "REFUSED", events: FAILED_EVENTS },
  { from: WAITING, trigger: "payer_mismatch", to: "REFUNDED", events: CHANGED },
  { from: WAITING, trigger: "expire", to: "EXPIRED", events: ["charge.expired", "payment.failed", "payment.expired"] },
  { from: CANCELLABLE, trigger: "cancel", to: "CANCELLED", events: FAILED_EVENTS },
  { from: REFUNDABLE, trigger: "refund", to: "REFUNDED", events: CHANGED },
  { from: DISPUTABLE, trigger: "dispute", to: "DISPUTE", events: ["payment.failed"] },
  { from: [...SETTLED, "DISPUTE"], trigger: "chargeback", to: "CHARGEBACK", events: ["payment.failed"] },
  { from: DISPUTED, trigger: "dispute_won", to: "PAID", events: CHANGED },
  { from: DISPUTED, trigger: "dispute_won", to: "APPROVED", events: CHANGED },
];

/**
 * The row of the table that lets `trigger` move a transaction from `from` (null: not created yet) to `to`, or
 * undefined.
 */
export function transitionOf(
  from: string | null,
  trigger: TransactionTrigger,
  to: string,
): TransactionTransition | undefined {
  return TRANSACTION_TRANSITIONS.find(
    (t) => t.trigger === trigger && t.to === to && (t.from as readonly (string | null)[]).includes(from),
  );
}

/** True when the table lets `trigger` move a transaction from `from` to `to`. */
export function canTransition(from: string | null, trigger: TransactionTrigger, to: string): boolean {
  return transitionOf(from, trigger, to) !== undefined;
}

/**
 * The events of a move from `from` (null: just created) into `to`, whatever the trigger: the
 * row's events; for a pair no row lists (a resend that guesses the previous status), those of
 * the first row into `to`, else `payment.status_changed`; nothing when `from === to`.
 */
export function eventsOf(from: string | null, to: string): readonly TransitionEventType[] {
  if (from === to) return [];
  const rows = TRANSACTION_TRANSITIONS.filter((t) =>
    from === null ? t.from.includes(null) : t.to === to && !t.from.includes(null),
  );
  if (from === null) return rows[0]!.events;
  return (rows.find((t) => (t.from as readonly (string | null)[]).includes(from)) ?? rows[0])?.events ?? CHANGED;
}
