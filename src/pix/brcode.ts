/**
 * BR Code writer: the dynamic Pix EMV QRCPS-MPM payload (BCB "Manual de Padrões para Iniciação do
 * Pix" / "Manual do BR Code"). Dynamic codes carry the location URL (no scheme) in 26/25, `***`
 * in 62/05 and the CRC-16/CCITT-FALSE of everything up to and including `6304` in field 63.
 */
import { crc16CcittFalse } from "./crc16";

/** The GUI of the Pix arrangement inside the merchant account template (26/00). */
export const PIX_GUI = "br.gov.bcb.pix";
/** Limits of the manual: location URL in 26/25, merchant name (59), merchant city (60). */
export const MAX_LOCATION_LENGTH = 77;
export const MAX_MERCHANT_NAME = 25;
export const MAX_MERCHANT_CITY = 15;

export interface DynamicBrCodeInput {
  /** Location URL without scheme, e.g. `pix.example.com/v1/pix/loc/abc` (<= 77 chars). */
  location: string;
  /** Receiver name; folded to ASCII and cut to 25 characters. */
  merchantName: string;
  /** Receiver city; folded to ASCII and cut to 15 characters. */
  merchantCity: string;
  /** Amount in centavos; written as field 54 with two decimals when given. */
  amount?: number;
  /** Point of initiation 12 (single use), the default for a cob; false omits field 01. */
  singleUse?: boolean;
}

/** One TLV field: 2-digit id, 2-digit length, value. Throws RangeError above 99 characters. */
export function tlv(id: string, value: string): string {
  if (value.length > 99) throw new RangeError(`EMV field ${id} longer than 99 characters`);
  return id + String(value.length).padStart(2, "0") + value;
}

/** Folds to printable ASCII (drops accents and anything outside 0x20-0x7E), trims, cuts to `max`. */
export function foldAscii(text: string, max: number): string {
  const key = `${max}|${text}`;
  const hit = foldCache.get(key);
  if (hit !== undefined) return hit;
  const out = foldUncached(text, max);
  if (foldCache.size >= 1024) foldCache.clear();
  foldCache.set(key, out);
  return out;
}

const foldCache = new Map<string, string>();

function foldUncached(text: string, max: number): string {
  const folded = text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return folded.slice(0, max).trim();
}

/** Centavos -> "12.34" (field 54). */
export function formatAmount(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos <= 0) throw new RangeError("amount must be a positive integer");
  const s = String(centavos).padStart(3, "0");
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}

/**
 * The dynamic BR Code for `input`. Throws RangeError when the location is longer than 77
 * characters, starts with a scheme, or the amount does not fit field 54 (13 characters).
 */
export function buildDynamicBrCode(input: DynamicBrCodeInput): string {
  if (/^[a-z]+:\/\//i.test(input.location)) throw new RangeError("location must not carry a scheme");
  if (input.location.length === 0 || input.location.length > MAX_LOCATION_LENGTH)
    throw new RangeError(`location must be 1-${MAX_LOCATION_LENGTH} characters`);
  const name = foldAscii(input.merchantName, MAX_MERCHANT_NAME) || "RECEBEDOR";
  const city = foldAscii(input.merchantCity, MAX_MERCHANT_CITY) || "BRASILIA";
  let out = tlv("00", "01");
  if (input.singleUse !== false) out += tlv("01", "12");
  out += tlv("26", tlv("00", PIX_GUI) + tlv("25", input.location));
  out += tlv("52", "0000");
  out += tlv("53", "986");
  if (input.amount !== undefined) {
    const amount = formatAmount(input.amount);
    if (amount.length > 13) throw new RangeError("amount does not fit the BR Code (max 9999999999.99)");
    out += tlv("54", amount);
  }
  out += tlv("58", "BR");
  out += tlv("59", name);
  out += tlv("60", city);
  out += tlv("62", tlv("05", "***"));
  out += "6304";
  return out + crc16CcittFalse(out);
}

/** Parses top-level TLV fields (id -> value). Throws RangeError on a malformed payload. */
export function parseTlv(payload: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < payload.length) {
    const id = payload.slice(i, i + 2);
    const len = Number(payload.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(len) || i + 4 + len > payload.length)
      throw new RangeError(`bad TLV at ${i}`);
    out.set(id, payload.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return out;
}

/** True when the last 4 characters are the CRC of everything before them. */
export function hasValidCrc(payload: string): boolean {
  return (
    payload.length > 8 &&
    payload.slice(-8, -4) === "6304" &&
    crc16CcittFalse(payload.slice(0, -4)) === payload.slice(-4)
  );
}
