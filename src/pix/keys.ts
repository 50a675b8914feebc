/**
 * Pix keys by type (DICT rules, BCB "Manual de Uso do DICT"), the one place they are checked:
 * CPF/CNPJ with check digits (src/pix/tax-id.ts, cpf-cnpj-validator), e-mail (validator's isEmail,
 * at most 77 characters, normalised with src/lib/email.ts), phone (`+55` E.164 valid for Brazil,
 * libphonenumber-js), EVP (a UUID, validator's isUUID). Payout destinations (src/domain/payouts)
 * and cashout refund keys (src/providers/bcb-pix-v2/cashout.ts) use it. No network, no state.
 */
import isUUID from "validator/lib/isUUID";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { isEmailAddress, normalizeEmail } from "../lib/email";
import { parseTaxId } from "./tax-id";
import type { PixKeyType } from "./key-types";

/** Longest e-mail key the DICT accepts, characters. */
export const MAX_EMAIL_KEY = 77;

/**
 * `key` as a Pix key of `type`, normalised (CPF/CNPJ without punctuation, e-mail lower-cased, phone E.164, EVP
 * lower-case), or null when it is not one.
 */
export function normalizePixKey(type: PixKeyType, key: string): string | null {
  switch (type) {
    case "cpf":
    case "cnpj": {
      const parsed = parseTaxId(key);
      return parsed && parsed.kind === type ? parsed.value : null;
    }
    case "email": {
      const v = normalizeEmail(key);
      return v.length <= MAX_EMAIL_KEY && isEmailAddress(v) ? v : null;
    }
    case "phone": {
      const p = key.startsWith("+55") ? parsePhoneNumberFromString(key) : undefined;
      return p && p.country === "BR" && p.isValid() ? p.number : null;
    }
    case "evp":
      return isUUID(key) ? key.toLowerCase() : null;
  }
}

/**
 * The type and normalised form of a key written without its type (a refund's `destinationKey`):
 * 11 or 14 digits are a CPF or CNPJ, `+55...` a phone, a UUID an EVP, else an e-mail; null when
 * it is none of them.
 */
export function classifyPixKey(key: string): { type: PixKeyType; key: string } | null {
  const type: PixKeyType = /^\d{11}$/.test(key)
    ? "cpf"
    : /^\d{14}$/.test(key)
      ? "cnpj"
      : key.startsWith("+")
        ? "phone"
        : isUUID(key)
          ? "evp"
          : "email";
  const normal = normalizePixKey(type, key);
  return normal === null ? null : { type, key: normal };
}

/** A payer's document (punctuation allowed) as a CPF/CNPJ Pix key, or null when it is not a valid one. */
export function documentPixKey(doc: string | null | undefined): { type: "cpf" | "cnpj"; key: string } | null {
  const parsed = doc ? parseTaxId(doc) : null;
  return parsed && /^\d+$/.test(parsed.value) ? { type: parsed.kind, key: parsed.value } : null;
}
