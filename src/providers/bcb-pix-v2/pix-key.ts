/**
 * Pix keys (DICT) by type, for a cashout refund's destination (extensions.md "Refunds by
 * cashout"): CPF (11 digits, check digits) and CNPJ (14 digits, check digits) via
 * cpf-cnpj-validator, e-mail (at most 77 characters), phone (`+55` E.164: `+55` then 10 or 11
 * digits), EVP (a UUID). No network, no state.
 */
import { cnpj, cpf } from "cpf-cnpj-validator";

export type PixKeyType = "cpf" | "cnpj" | "email" | "phone" | "evp";

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_RE = /^\+55\d{10,11}$/;
const EVP_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The type of Pix key `key` as written, or null when it is none (a CPF/CNPJ key is digits only). */
export function pixKeyTypeOf(key: string): PixKeyType | null {
  if (/^\d{11}$/.test(key)) return cpf.isValid(key) ? "cpf" : null;
  if (/^\d{14}$/.test(key)) return cnpj.isValid(key) ? "cnpj" : null;
  if (PHONE_RE.test(key)) return "phone";
  if (EVP_RE.test(key)) return "evp";
  if (key.length <= 77 && EMAIL_RE.test(key)) return "email";
  return null;
}

/** A payer's document as a CPF/CNPJ Pix key (punctuation dropped), or null when it is not a valid one. */
export function documentKeyOf(doc: string | null | undefined): { key: string; type: "cpf" | "cnpj" } | null {
  const digits = doc?.replace(/[.\-/\s]/g, "") ?? "";
  const type = pixKeyTypeOf(digits);
  return type === "cpf" || type === "cnpj" ? { key: digits, type } : null;
}
