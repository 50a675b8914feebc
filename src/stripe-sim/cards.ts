/**
 * stripe-sim test cards (Stripe's documented numbers; research/money-out.md, spec extensions.md):
 * `4242424242424242` pays, `4000000000000002` is declined (`card_declined`/`generic_decline`),
 * `4000000000000259` pays and is disputed afterwards, `4000002760003184` asks for 3-D Secure.
 * Any other number that passes the Luhn check pays. Brand from the prefix.
 */
import { createHash } from "node:crypto";
import type { CardUsed } from "./payment-objects";

export type CardBehaviour = "pay" | "decline" | "dispute" | "3ds";

export const TEST_CARDS: Record<string, CardBehaviour> = {
  "4242424242424242": "pay",
  "4000000000000002": "decline",
  "4000000000000259": "dispute",
  "4000002760003184": "3ds",
};

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function brand(n: string): string {
  if (n.startsWith("4")) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(n)) return "mastercard";
  if (/^3[47]/.test(n)) return "amex";
  if (/^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/.test(n)) return "elo";
  return "unknown";
}

export interface CardForm {
  number: string;
  exp: string;
  cvc: string;
}

/** A checked card or the pt-BR message for the form. `nowMs` decides expiry. */
export function readCard(
  form: CardForm,
  nowMs: number,
): { card: CardUsed; behaviour: CardBehaviour } | { error: string } {
  const number = form.number.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) return { error: "Número de cartão inválido." };
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.exp);
  if (!m) return { error: "Validade inválida (use MM/AA)." };
  const month = Number(m[1]);
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  const now = new Date(nowMs);
  if (month < 1 || month > 12) return { error: "Validade inválida (use MM/AA)." };
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1))
    return { error: "Cartão vencido." };
  const b = brand(number);
  if (
    !/^\d{3,4}$/.test(form.cvc.trim()) ||
    (b === "amex" ? form.cvc.trim().length !== 4 : form.cvc.trim().length !== 3)
  )
    return { error: "Código de segurança (CVC) inválido." };
  return {
    card: {
      brand: b,
      last4: number.slice(-4),
      exp_month: month,
      exp_year: year,
      funding: "credit",
      fingerprint: createHash("sha256").update(number).digest("base64url").slice(0, 16),
    },
    behaviour: TEST_CARDS[number] ?? "pay",
  };
}
