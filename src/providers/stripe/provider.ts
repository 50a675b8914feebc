/**
 * The Stripe adapter (extensions.md "Live cards and boletos through Stripe"; issue 26): live
 * CREDIT_CARD through a hosted Checkout Session and live BOLETO through a PaymentIntent, through
 * the official `stripe` package (./client.ts). Providers never see the database: what later calls
 * need (the session, the PaymentIntent) is handed back as `method_details` at create and read from
 * the row. Notifications are verified Stripe events (the domain checked the signature) and only
 * hint: every change is confirmed by retrieving the object.
 *
 * Status table (Stripe -> outcome; the mapping functions are in ./outcomes.ts, the session and
 * boleto create/query calls in ./payments.ts):
 *
 *   Flow          Stripe                                                     Outcome
 *   create card   Checkout Session `open` (mode payment, BRL)                pending (cardRedirectUrl = /c/<id>; first
 * poll in 60 s)
 *   create boleto PaymentIntent `requires_action` + boleto_display_details   pending (boletoLine, boletoBarcode,
 * boletoPdfUrl, boletoExpiresAt)
 *   create        invalid_request_error (a field)                            invalid (400 on the field)
 *   create        authentication_error                                       auth_failed (503)
 *   create        connection error, timeout, 429, 5xx                        retryable (503)
 *   query card    session `complete` + payment_status `paid`                 settled CREDIT_CARD (-> APPROVED; brand,
 * last4, installments, fee)
 *   query card    session `open`, PaymentIntent `processing`                 pending processing (PROCESSING)
 *   query card    session `open` (declined or 3DS pending: still payable)    pending (poll again, backing off to the
 * expiry)
 *   query card    session `expired`                                          expired (EXPIRED)
 *   query card    session `open` past the transaction's expiry               the session is expired at Stripe, then
 * expired
 *   query boleto  PaymentIntent `succeeded`                                  settled BOLETO (-> PAID; fee)
 *   query boleto  `processing`                                               pending processing
 *   query boleto  `requires_action`                                          pending (poll again)
 *   query boleto  `requires_payment_method` / `canceled` (voucher expired)   expired
 *   refund card   Refund `pending` / `requires_action`                       pending IN_PROGRESS
 *   refund card   `succeeded`                                                settled (REFUNDED)
 *   refund card   `failed` / `canceled`, or Stripe refuses the refund        rejected (FAILED, balance restored)
 *   refund boleto -                                                          not_supported (400 REFUND_NOT_SUPPORTED)
 *   cancel        session expired (open -> `expired`), boleto PI canceled    settled (CANCELLED)
 *   cancel        session `complete`                                         rejected (already paid)
 *
 * Idempotency: a session is created with Stripe idempotency key `cofre_cs_<transaction id>`, a
 * boleto with `cofre_pi_<transaction id>`, a refund with the refund id (`re_...`), so a retry never
 * creates a second object; `reserve` makes the domain keep the transaction in a durable create
 * intent first, so a retry of the same Idempotency-Key, or the recovery after a crash, reuses it
 * (the recovery creates nothing: what Stripe did not replay is withdrawn and the intent dropped).
 */
import type { PaymentMethod } from "../../domain/charges/model";
import type {
  CancelOutcome,
  CreateOutcome,
  DisputeOutcome,
  NotificationItem,
  NotificationOutcome,
  PaymentOutcome,
  PaymentProvider,
  ProviderMemo,
  RefundOutcome,
  RefundPlan,
  RefundRequest,
  StatusRequest,
} from "../../domain/providers/types";
import type { Stripe } from "./client";
import { detailsOf, failureOf, idOf, nextPoll, refundOutcome, transactionRefOf, type CardDetails } from "./outcomes";
import { createBoleto, createSession, queryBoleto, querySession } from "./payments";

export interface StripeProviderOptions {
  connectionId: string;
  /** The connection's client (secrets opened on first use). */
  client: () => Promise<Stripe>;
}

export function createStripeProvider(opts: StripeProviderOptions): PaymentProvider {
  const methods: ReadonlySet<PaymentMethod> = new Set<PaymentMethod>(["CREDIT_CARD", "BOLETO"]);

  return {
    name: "stripe",
    methods,
    connectionId: opts.connectionId,

    /**
     * What create makes is keyed by the transaction id (Stripe idempotency keys `cofre_cs_<id>`,
     * `cofre_pi_<id>`): the domain's durable intent keeps the row, so a retry or the recovery sends
     * the same requests and Stripe answers the objects it already made (one session per payment).
     */
    reserve(_ctx, req) {
      return { txid: req.transaction.id, connectionId: opts.connectionId };
    },

    async create(ctx, req) {
      const tx = req.transaction;
      if (tx.currency !== "BRL")
        return {
          status: "invalid",
          param: "currency",
          code: "currency_not_supported",
          message: "Live cards and boletos are charged in BRL.",
        };
      let stripe: Stripe;
      try {
        stripe = await opts.client();
      } catch (err) {
        return { status: "auth_failed", code: "secrets_unreadable", message: (err as Error).message };
      }
      // A transaction also offering PIX keeps the Pix connection that created its cob (registry.ts forTransaction).
      const columns: Record<string, unknown> = tx.providerConnectionId
        ? {}
        : { providerConnectionId: opts.connectionId };
      const details: Partial<Record<PaymentMethod, Record<string, unknown>>> = {};
      const made: { kind: "boleto" | "session"; id: string; replayed: boolean }[] = [];
      try {
        if (req.methods.includes("BOLETO")) {
          const b = await createBoleto(ctx, req, stripe);
          if ("status" in b) return b;
          details.BOLETO = b.details;
          made.push({ kind: "boleto", id: b.id, replayed: b.replayed });
        }
        if (req.methods.includes("CREDIT_CARD")) {
          const s = await createSession(ctx, req, stripe);
          Object.assign(columns, s.columns);
          details.CREDIT_CARD = s.details;
          made.push({ kind: "session", id: s.id, replayed: s.replayed });
        }
        // The recovery of a create that may never have reached Stripe must not create: what Stripe
        // did not replay under the idempotency key was made just now, so it is withdrawn at once.
        if (req.reservation?.lookupOnly && made.some((m) => !m.replayed)) {
          for (const m of made) {
            if (m.kind === "session") await stripe.checkout.sessions.expire(m.id);
            else await stripe.paymentIntents.cancel(m.id);
          }
          return { status: "absent" };
        }
      } catch (err) {
        const f = failureOf(err);
        // Stripe refusing a create is a request Cofre cannot make (422), not a declined payment.
        return f.status === "rejected" ? { ...f, status: f.param ? "invalid" : "not_supported" } : f;
      }
      const now = ctx.clock.nowMs();
      const out: CreateOutcome = {
        status: "pending",
        columns,
        details,
        checkAt: nextPoll(now, 0, (columns.expiresAt as number | undefined) ?? tx.expiresAt),
        memo: { poll: 1 },
      };
      return out;
    },

    async queryStatus(ctx, req: StatusRequest): Promise<PaymentOutcome> {
      const tx = req.transaction;
      const { card, boleto } = detailsOf(tx);
      const n = typeof req.memo?.poll === "number" ? req.memo.poll : 0;
      try {
        const stripe = await opts.client();
        if (card.session) {
          const o = await querySession(ctx, tx, card.session, n, stripe);
          if (o.status === "settled" || !boleto.paymentIntent) return o;
          const b = await queryBoleto(ctx, boleto.paymentIntent, n, stripe);
          // Both offered: the boleto may still be paid while the card session is over.
          return b.status === "settled" ? b : o.status === "expired" && b.status !== "expired" ? b : o;
        }
        if (boleto.paymentIntent) return await queryBoleto(ctx, boleto.paymentIntent, n, stripe);
        return { status: "pending" };
      } catch (err) {
        const f = failureOf(err);
        return f.status === "rejected" ? { ...f, status: "retryable" } : f;
      }
    },

    parseNotification(_ctx, req): NotificationOutcome {
      const event = req.body as Stripe.Event;
      if (!event || typeof event !== "object" || typeof (event as { type?: unknown }).type !== "string")
        return { status: "invalid", code: "not_an_event", message: "The notification is not a Stripe event." };
      const items: NotificationItem[] = [];
      const obj = event.data.object as unknown as Record<string, unknown>;
      if (event.type.startsWith("checkout.session.")) {
        const ref = transactionRefOf(obj as { client_reference_id?: string | null; metadata?: Stripe.Metadata | null });
        if (ref) items.push({ ref: { transactionId: ref }, method: "CREDIT_CARD" });
      } else if (event.type.startsWith("payment_intent.")) {
        const pi = obj as unknown as Stripe.PaymentIntent;
        const ref = pi.metadata?.cofre_transaction_id;
        const boleto = ((pi as unknown as { payment_method_types?: string[] }).payment_method_types ?? []).includes(
          "boleto",
        );
        if (ref) items.push({ ref: { transactionId: ref }, method: boleto ? "BOLETO" : "CREDIT_CARD" });
      } else if (event.type.startsWith("charge.dispute.")) {
        const d = obj as unknown as Stripe.Dispute;
        if (typeof d.id === "string") return { status: "parsed", items, disputeIds: [d.id] };
      } else if (event.type === "charge.refund.updated" || event.type.startsWith("refund.")) {
        const r = obj as unknown as Stripe.Refund;
        const ref = r.metadata?.cofre_transaction_id;
        if (ref && r.metadata?.cofre_refund_id)
          items.push({ ref: { transactionId: ref }, refundIds: [r.metadata.cofre_refund_id] });
      } else if (event.type === "charge.refunded") {
        const c = obj as unknown as Stripe.Charge;
        for (const r of c.refunds?.data ?? [])
          if (r.metadata?.cofre_transaction_id && r.metadata.cofre_refund_id)
            items.push({
              ref: { transactionId: r.metadata.cofre_transaction_id },
              refundIds: [r.metadata.cofre_refund_id],
            });
      }
      return { status: "parsed", items };
    },

    planRefund(ctx, req): RefundPlan {
      if (req.method === "BOLETO")
        return {
          status: "not_supported",
          code: "boleto_not_refundable",
          message: "Stripe cannot refund a boleto: pay the customer back by other means.",
        };
      if (req.method !== "CREDIT_CARD")
        return {
          status: "not_supported",
          code: "method_not_served",
          message: `The card provider does not refund ${req.method}.`,
        };
      if (req.strategy === "cashout" || req.destinationKey)
        return {
          status: "not_supported",
          code: "cashout_not_supported",
          message: "A card is refunded to the card: strategy cashout and destinationKey do not apply.",
        };
      return { status: "pending", checkAt: ctx.clock.nowMs(), strategy: null, providerRefundId: req.refundId };
    },

    async refund(_ctx, req: RefundRequest): Promise<RefundOutcome> {
      const pi = detailsOf(req.transaction).card.paymentIntent;
      if (!pi)
        return {
          status: "rejected",
          code: "no_payment_intent",
          message: "The card payment has no Stripe PaymentIntent on record.",
        };
      try {
        const stripe = await opts.client();
        const r = await stripe.refunds.create(
          {
            payment_intent: pi,
            amount: req.refund.amount,
            metadata: { cofre_refund_id: req.refund.id, cofre_transaction_id: req.transaction.id },
          },
          { idempotencyKey: req.refund.id },
        );
        return refundOutcome(r);
      } catch (err) {
        return failureOf(err, "stripe_refund_refused");
      }
    },

    async refundStatus(ctx, req: RefundRequest): Promise<RefundOutcome> {
      const { paymentIntent: pi, charge } = detailsOf(req.transaction).card as CardDetails & { charge?: string };
      if (!pi)
        return {
          status: "rejected",
          code: "no_payment_intent",
          message: "The card payment has no Stripe PaymentIntent on record.",
        };
      const mine = (r: Stripe.Refund) => r.metadata?.cofre_refund_id === req.refund.id;
      try {
        const stripe = await opts.client();
        // The charge's refunds first (one call); a charge with more refunds than its first page: the refund list.
        const c = charge ? await stripe.charges.retrieve(charge, { expand: ["refunds"] }) : null;
        const found = c?.refunds?.data.find(mine);
        if (found) return refundOutcome(found);
        if (!c || c.refunds?.has_more)
          for await (const r of stripe.refunds.list({ payment_intent: pi, limit: 100 }))
            if (mine(r)) return refundOutcome(r);
      } catch (err) {
        const f = failureOf(err);
        return f.status === "rejected" ? { ...f, status: "retryable" } : f;
      }
      // Never reached Stripe (a crash before the call): make it now, same idempotency key.
      return this.refund(ctx, req);
    },

    async disputeStatus(_ctx, req): Promise<DisputeOutcome> {
      try {
        const stripe = await opts.client();
        const d = await stripe.disputes.retrieve(req.disputeId);
        const piId = idOf(d.payment_intent);
        const pi = piId ? await stripe.paymentIntents.retrieve(piId) : null;
        const status =
          d.status === "lost"
            ? "lost"
            : d.status === "won" || d.status === "warning_closed" || d.status === "prevented"
              ? "won"
              : "open";
        const due = d.evidence_details?.due_by;
        return {
          status,
          disputeId: d.id,
          transactionId: pi?.metadata?.cofre_transaction_id ?? null,
          amount: d.amount,
          reason: d.reason ?? null,
          respondBy: due ? due * 1000 : null,
        };
      } catch (err) {
        // rejected: Stripe has no such dispute (a forged hint).
        return failureOf(err);
      }
    },

    async cancel(_ctx, req): Promise<CancelOutcome> {
      const { card, boleto } = detailsOf(req.transaction);
      try {
        const stripe = await opts.client();
        if (card.session) {
          const s = await stripe.checkout.sessions.retrieve(card.session);
          if (s.status === "complete")
            return { status: "rejected", code: "session_complete", message: "The card payment was already made." };
          if (s.status === "open") await stripe.checkout.sessions.expire(card.session);
        }
        if (boleto.paymentIntent) {
          const pi = await stripe.paymentIntents.retrieve(boleto.paymentIntent);
          if (pi.status === "succeeded" || pi.status === "processing")
            return { status: "rejected", code: "boleto_paid", message: "The boleto was already paid." };
          if (pi.status !== "canceled") await stripe.paymentIntents.cancel(boleto.paymentIntent);
        }
        return { status: "settled" };
      } catch (err) {
        return failureOf(err);
      }
    },
  };
}

export { failureOf, POLL_DELAYS_S } from "./outcomes";
export type { ProviderMemo };
