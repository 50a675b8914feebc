/**
 * The sandbox provider: serves every method of test-mode transactions, deterministically and
 * in-process (one file per method in this folder). Registered by the composition root
 * (createDeps); faults live behind the SandboxFaultStore it receives.
 *
 * Status table: the sandbox's own statuses and events -> outcomes (tested in test/providers/).
 * | flow              | sandbox status / event                       | outcome                                                   |
 * |-------------------|----------------------------------------------|-----------------------------------------------------------|
 * | create            | fault `unavailable`                          | retryable `sandbox_unavailable` (503, nothing stored)     |
 * | create            | fault `reject`                               | rejected `sandbox_rejected` (created `failed`)            |
 * | create            | Pix location longer than 77 characters       | rejected `location_too_long`                              |
 * | create            | every method prepared                        | pending (WAITING_PAYMENT) with columns and details        |
 * | notification      | payer `pay`, outcome succeed                 | settled (amount, payer as sent)                           |
 * | notification      | payer `pay`, outcome decline                 | rejected `declined` / `sandbox_declined`                  |
 * | notification      | card approve (4242..., other Luhn numbers)   | settled CREDIT_CARD, full amount                          |
 * | notification      | card decline (4000000000000002)              | rejected `card_declined` / `sandbox_card_declined`        |
 * | notification      | card 3DS (...3220 approve, ...3063 decline)  | pending, processing, check in 3 s, memo `{threeDs}`       |
 * | notification      | card number not Luhn-valid                   | invalid `number`                                          |
 * | queryStatus       | memo `{threeDs: "approve"}`                  | settled CREDIT_CARD, full amount                          |
 * | queryStatus       | memo `{threeDs: "decline"}`                  | rejected `3ds_failed` / `sandbox_3ds_failed`              |
 * | queryStatus       | no memo (the sandbox keeps no outside state) | pending                                                   |
 * | planRefund        | PIX, CREDIT_CARD                             | pending, submit in 2 s (Pix default strategy `cashout`;   |
 * |                   |                                              | `devolution` gets a `D...` return id)                     |
 * | planRefund        | MBWAY, MULTIBANCO, BOLETO, CRYPTO            | not_supported `refund_not_supported`                      |
 * | refund            | submitted                                    | pending, in progress (IN_PROGRESS), check in 2 s          |
 * | refundStatus      | PENDING                                      | pending, in progress, check in 2 s                        |
 * | refundStatus      | IN_PROGRESS                                  | settled (REFUNDED)                                        |
 * | cancel            | any                                          | settled                                                   |
 * | send              | before requestedAt + 10 s                    | processing, end-to-end id, check at requestedAt + 10 s    |
 * | send, sendStatus  | at or after requestedAt + 10 s               | paid, 32-character end-to-end id (send.ts)                |
 */
import type { PaymentMethod } from "../../domain/charges/model";
import { newEndToEndId } from "../../pix/ids";
import {
  ProviderError,
  type CreateOutcome,
  type CreateRequest,
  type FaultMode,
  type NotificationOutcome,
  type PaymentOutcome,
  type PaymentProvider,
  type ProviderContext,
  type SandboxFaultStore,
  type SandboxPayerEvent,
} from "../../domain/providers/types";
import { sandboxBoleto } from "./boleto";
import { cardPaymentOutcome, cardStatusOutcome, sandboxCard } from "./card";
import { sandboxCrypto } from "./crypto";
import { sandboxMbway } from "./mbway";
import type { PreparedMethod, SandboxMethod } from "./method";
import { sandboxMultibanco } from "./multibanco";
import { sandboxPix } from "./pix";
import { planSandboxRefund, sandboxRefundStatus, submitSandboxRefund } from "./refunds";
import { sandboxSend, sandboxSendStatus } from "./send";

const METHODS: Record<PaymentMethod, SandboxMethod> = {
  PIX: sandboxPix,
  CREDIT_CARD: sandboxCard,
  MBWAY: sandboxMbway,
  MULTIBANCO: sandboxMultibanco,
  BOLETO: sandboxBoleto,
  CRYPTO: sandboxCrypto,
};

export interface SandboxOptions {
  faults: SandboxFaultStore;
}

/** The sandbox provider (see the status table above). */
export function createSandboxProvider(opts: SandboxOptions): PaymentProvider {
  return {
    name: "sandbox",
    methods: new Set(Object.keys(METHODS) as PaymentMethod[]),

    create(ctx, req) {
      // The fault store answers through the storage port (a Promise); a synchronous one (tests) is served as is.
      const fault = opts.faults.take(req.transaction.accountId);
      return fault instanceof Promise ? fault.then((f) => createWith(ctx, req, f)) : createWith(ctx, req, fault);
    },

    queryStatus(_ctx, req): PaymentOutcome {
      return cardStatusOutcome(req.transaction, req.memo);
    },

    parseNotification(ctx, req): NotificationOutcome {
      const event = req.body as SandboxPayerEvent | undefined;
      const tx = req.transaction;
      if (!tx || !event || (event.kind !== "pay" && event.kind !== "card"))
        return {
          status: "invalid",
          code: "sandbox_bad_event",
          message: "Not a sandbox payer event for a transaction.",
        };
      const outcome =
        event.kind === "card"
          ? cardPaymentOutcome(tx, event.number, ctx.clock.nowMs())
          : payOutcome(event, ctx.clock.now());
      if (outcome.status === "invalid") return outcome;
      return { status: "parsed", items: [{ ref: { transactionId: tx.id }, outcome }] };
    },

    planRefund(ctx, req) {
      return planSandboxRefund(ctx, req, METHODS[req.method]?.refundable === true);
    },
    refund: submitSandboxRefund,
    refundStatus: sandboxRefundStatus,
    send: sandboxSend,
    sendStatus: sandboxSendStatus,

    cancel() {
      return { status: "settled" };
    },
  };
}

/** The payer's `pay` event (test helper, checkout simulate button) as an outcome. */
function payOutcome(e: Extract<SandboxPayerEvent, { kind: "pay" }>, now: Date): PaymentOutcome {
  if (e.outcome === "decline")
    return {
      status: "rejected",
      method: e.method,
      reason: "declined",
      code: "sandbox_declined",
      message: "The payer's bank declined the payment.",
    };
  const endToEndId = e.method === "PIX" ? newEndToEndId(now) : undefined;
  return {
    status: "settled",
    method: e.method,
    amount: e.amount,
    endToEndId,
    payerTaxId: e.payerTaxId,
    payerName: e.payerName,
    disclosed: e.disclosed,
  };
}

/** The sandbox create once the account's next fault (if any) is known (see the status table above). */
function createWith(ctx: ProviderContext, req: CreateRequest, fault: FaultMode | null): CreateOutcome {
  if (fault === "unavailable")
    return {
      status: "retryable",
      code: "sandbox_unavailable",
      message: "The sandbox provider is unreachable (provider fault).",
    };
  if (fault === "reject")
    return {
      status: "rejected",
      code: "sandbox_rejected",
      message: "The sandbox provider rejected the charge (provider fault).",
    };
  try {
    if (req.methods.length === 1) {
      const m = req.methods[0]!;
      const p = METHODS[m].prepare(ctx, req.transaction, req.merchant);
      return { status: "pending", columns: p.columns, details: p.details ? { [m]: p.details } : undefined };
    }
    // Each method sees the columns of the ones before it (expiry of non-Pix methods).
    const work = { ...req.transaction };
    const columns: PreparedMethod["columns"] = {};
    const details: Partial<Record<PaymentMethod, Record<string, unknown>>> = {};
    for (const m of req.methods) {
      const p = METHODS[m].prepare(ctx, work, req.merchant);
      Object.assign(work, p.columns);
      Object.assign(columns, p.columns);
      if (p.details) details[m] = { ...details[m], ...p.details };
    }
    return { status: "pending", columns, details };
  } catch (err) {
    if (err instanceof ProviderError) return err.toOutcome();
    throw err;
  }
}
