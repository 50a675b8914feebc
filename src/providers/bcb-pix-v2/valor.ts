/**
 * API Pix amounts (OpenAPI `components.schemas` `valor`: a string `\d{1,10}\.\d{2}`, reais with
 * two decimals) to and from integer centavos, without floating point.
 */

import { decimalOfMinor } from "../../lib/money";

const VALOR_RE = /^(\d{1,10})\.(\d{2})$/;

/**
 * 12345 -> "123.45"; 5 -> "0.05". Throws RangeError for a negative or non-integer amount or one above 10 digits of
 * reais.
 */
export function toValor(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0) throw new RangeError("centavos must be a non-negative integer");
  if (String(Math.floor(centavos / 100)).length > 10)
    throw new RangeError("amount exceeds the API Pix valor (10 digits of reais)");
  return decimalOfMinor(centavos);
}

/** "123.45" -> 12345; null when `valor` is not the standard's pattern. */
export function fromValor(valor: unknown): number | null {
  if (typeof valor !== "string") return null;
  const m = VALOR_RE.exec(valor);
  return m ? Number(m[1]) * 100 + Number(m[2]) : null;
}
