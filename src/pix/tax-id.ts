/**
 * Brazilian tax ids: CPF (11 digits), numeric CNPJ (14 digits) via `cpf-cnpj-validator`, and the
 * alphanumeric CNPJ of RFB Nota Técnica 49/2024 (from July 2026: 12 characters [0-9A-Z] + 2 numeric
 * check digits; each character's value is its char code minus 48; weights 2..9 cycling from the right,
 * mod 11, remainder < 2 -> 0).
 */
import { cpf, cnpj } from "cpf-cnpj-validator";

export type TaxIdKind = "cpf" | "cnpj";

/** Removes the usual mask (`.`, `/`, `-`, spaces) and upper-cases letters. */
export function normalizeTaxId(value: string): string {
  return value.replace(/[./\-\s]/g, "").toUpperCase();
}

function cnpjCheckDigit(body: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += (body.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** True for a checksum-valid alphanumeric (or numeric) CNPJ of 14 normalized characters. */
export function isValidAlphanumericCnpj(value: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(value)) return false;
  if (/^(.)\1{13}$/.test(value)) return false;
  const d1 = cnpjCheckDigit(value.slice(0, 12));
  const d2 = cnpjCheckDigit(value.slice(0, 12) + d1);
  return value.slice(12) === `${d1}${d2}`;
}

/**
 * Classifies a tax id: returns `{kind, value}` with the normalized value when it is a
 * checksum-valid CPF or CNPJ (numeric or alphanumeric), else null.
 */
export function parseTaxId(raw: string): { kind: TaxIdKind; value: string } | null {
  const value = normalizeTaxId(raw);
  if (/^\d{11}$/.test(value)) return cpf.isValid(value) ? { kind: "cpf", value } : null;
  if (/^\d{14}$/.test(value)) return cnpj.isValid(value) ? { kind: "cnpj", value } : null;
  if (/^[0-9A-Z]{12}\d{2}$/.test(value)) return isValidAlphanumericCnpj(value) ? { kind: "cnpj", value } : null;
  return null;
}
