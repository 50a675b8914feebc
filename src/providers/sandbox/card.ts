/**
 * Sandbox CREDIT_CARD acquirer. Finalising only opens a session: the payer enters the card on
 * the hosted checkout (`/c/<id>`, the `cardRedirectUrl`). Test card numbers decide the outcome
 * (approve, decline, 3DS challenge -> PROCESSING then APPROVED or REFUSED); see SANDBOX_CARDS
 * (src/domain/providers/sandbox-contract.ts: the checkout lists them).
 */
import { SANDBOX_CARDS } from "../../domain/providers/sandbox-contract";
import type { PaymentOutcome, ProviderMemo, TransactionRow } from "../../domain/providers/types";
import type { SandboxMethod } from "./method";

/** Seconds the simulated 3DS challenge takes. */
export const CARD_3DS_SECONDS = 3;

export type CardOutcome = "approve" | "decline" | "3ds_approve" | "3ds_decline" | "invalid";

/** Outcome of a card number in the sandbox: unknown Luhn-valid numbers approve, others are invalid. */
export function sandboxCardOutcome(number: string): CardOutcome {
  const n = number.replace(/[\s-]/g, "");
  if (n === SANDBOX_CARDS.decline) return "decline";
  if (n === SANDBOX_CARDS.threeDsApprove) return "3ds_approve";
  if (n === SANDBOX_CARDS.threeDsDecline) return "3ds_decline";
  return /^\d{12,19}$/.test(n) && luhn(n) ? "approve" : "invalid";
}

/**
 * The card form's status table (see the sandbox header): approve -> settled (full amount);
 * decline -> rejected `card_declined`; 3DS -> pending in flight (PROCESSING), query again in
 * CARD_3DS_SECONDS with memo `{threeDs}`; invalid -> invalid `number` (nothing changes).
 */
export function cardPaymentOutcome(tx: TransactionRow, number: string, nowMs: number): PaymentOutcome {
  const outcome = sandboxCardOutcome(number);
  switch (outcome) {
    case "approve":
      return { status: "settled", method: "CREDIT_CARD", amount: tx.amount };
    case "decline":
      return {
        status: "rejected",
        method: "CREDIT_CARD",
        reason: "card_declined",
        code: "sandbox_card_declined",
        message: "The card was declined.",
      };
    case "invalid":
      return {
        status: "invalid",
        param: "number",
        code: "invalid_card_number",
        message: "The card number is not valid (use one of the sandbox test cards).",
      };
    default:
      return {
        status: "pending",
        processing: true,
        checkAt: nowMs + CARD_3DS_SECONDS * 1000,
        memo: { threeDs: outcome === "3ds_approve" ? "approve" : "decline" },
      };
  }
}

/** Status query of a card payment: the memo of its 3DS challenge decides; without one nothing is new. */
export function cardStatusOutcome(tx: TransactionRow, memo: ProviderMemo | undefined): PaymentOutcome {
  if (memo?.threeDs === "approve") return { status: "settled", method: "CREDIT_CARD", amount: tx.amount };
  if (memo?.threeDs === "decline")
    return {
      status: "rejected",
      method: "CREDIT_CARD",
      reason: "3ds_failed",
      code: "sandbox_3ds_failed",
      message: "The 3DS challenge failed.",
    };
  return { status: "pending" };
}

function luhn(n: string): boolean {
  let sum = 0;
  for (let i = 0; i < n.length; i++) {
    let d = Number(n[n.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const sandboxCard: SandboxMethod = {
  method: "CREDIT_CARD",
  refundable: true,
  prepare(_ctx, tx) {
    const md = safeJson(tx.metadata);
    return { details: { returnUrl: typeof md.returnUrl === "string" ? md.returnUrl : null, session: "sandbox" } };
  },
};

function safeJson(s: string | null | undefined): Record<string, unknown> {
  try {
    const v = JSON.parse(s ?? "{}");
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}
