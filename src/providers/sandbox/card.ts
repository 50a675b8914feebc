/**
 * Sandbox CREDIT_CARD acquirer. Finalising only opens a session: the payer enters the card on
 * the hosted checkout (`/c/<id>`, the `cardRedirectUrl`). Test card numbers decide the outcome
 * (approve, decline, 3DS challenge -> PROCESSING then APPROVED or REFUSED); see SANDBOX_CARDS.
 */
import { registerSandboxProvider } from "../registry";
import type { MethodProvider } from "../types";

/** Test cards of the sandbox checkout form, by outcome. */
export const SANDBOX_CARDS = {
  approve: "4242424242424242",
  decline: "4000000000000002",
  threeDsApprove: "4000000000003220",
  threeDsDecline: "4000000000003063",
} as const;

export type CardOutcome = "approve" | "decline" | "3ds_approve" | "3ds_decline" | "invalid";

/** Outcome of a card number in the sandbox: unknown Luhn-valid numbers approve, others are invalid. */
export function sandboxCardOutcome(number: string): CardOutcome {
  const n = number.replace(/[\s-]/g, "");
  if (n === SANDBOX_CARDS.decline) return "decline";
  if (n === SANDBOX_CARDS.threeDsApprove) return "3ds_approve";
  if (n === SANDBOX_CARDS.threeDsDecline) return "3ds_decline";
  return /^\d{12,19}$/.test(n) && luhn(n) ? "approve" : "invalid";
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

export const sandboxCard: MethodProvider = {
  method: "CREDIT_CARD",
  supportsRefund: true,
  prepare(ctx) {
    const md = safeJson(ctx.tx.metadata);
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

registerSandboxProvider(sandboxCard);
