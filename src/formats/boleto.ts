/**
 * FEBRABAN bank boleto numbers (pure): the 44-digit barcode with its mod-11 general check digit,
 * the 47-digit typeable line with its three mod-10 field digits, and the due-date factor of the
 * cycle that restarted at 1000 on 2025-02-22 (FEBRABAN "fator de vencimento", 2025 rollover).
 */

/** Day the factor restarted at 1000 (UTC midnight; the factor counts calendar days). */
const FACTOR_BASE_MS = Date.UTC(2025, 1, 22);
const DAY_MS = 86_400_000;

/** Mod-10 check digit of a field (weights 2,1,2,1... from the right; digit sums of products). */
export function mod10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    let p = Number(digits[i]) * weight;
    if (p > 9) p = Math.floor(p / 10) + (p % 10);
    sum += p;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/** Mod-11 general digit of the barcode (weights 2..9 from the right); 0, 10 and 11 become 1. */
export function mod11Barcode(digits43: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits43.length - 1; i >= 0; i--) {
    sum += Number(digits43[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const r = 11 - (sum % 11);
  return r === 0 || r === 10 || r === 11 ? 1 : r;
}

/**
 * Due-date factor of a calendar date `YYYY-MM-DD`: 1000 on 2025-02-22, +1 per day, wrapping to
 * 1000 again after 9999. Throws RangeError for dates before 2025-02-22.
 */
export function dueDateFactor(dueDate: string): number {
  const [y, m, d] = dueDate.split("-").map(Number);
  const days = Math.round((Date.UTC(y!, m! - 1, d!) - FACTOR_BASE_MS) / DAY_MS);
  if (days < 0) throw new RangeError("due dates before 2025-02-22 belong to the previous factor cycle");
  return 1000 + (days % 9000);
}

export interface BoletoInput {
  /** 3-digit bank code (COMPE). */
  bank: string;
  /** Amount in centavos (at most 10 digits). */
  amount: number;
  /** Due date, calendar date `YYYY-MM-DD`. */
  dueDate: string;
  /** The bank's 25-digit free field ("campo livre"). */
  freeField: string;
}

export interface BoletoNumbers {
  /** 44 digits: bank(3) currency "9"(1) DV(1) factor(4) value(10) free field(25). */
  barcode: string;
  /** 47 digits: three fields with mod-10 digits, the general DV, factor + value. */
  line: string;
}

/** Builds barcode and typeable line. Throws RangeError on malformed input. */
export function buildBoleto(input: BoletoInput): BoletoNumbers {
  if (!/^\d{3}$/.test(input.bank)) throw new RangeError("bank must be 3 digits");
  if (!/^\d{25}$/.test(input.freeField)) throw new RangeError("free field must be 25 digits");
  if (!Number.isInteger(input.amount) || input.amount < 0 || input.amount > 9_999_999_999)
    throw new RangeError("amount out of range");
  const factor = String(dueDateFactor(input.dueDate));
  const value = String(input.amount).padStart(10, "0");
  const head = `${input.bank}9`;
  const withoutDv = head + factor + value + input.freeField;
  const dv = mod11Barcode(withoutDv);
  const barcode = head + dv + factor + value + input.freeField;
  return { barcode, line: barcodeToLine(barcode) };
}

/** The typeable line of a 44-digit barcode. */
export function barcodeToLine(barcode: string): string {
  const free = barcode.slice(19);
  const f1 = barcode.slice(0, 4) + free.slice(0, 5);
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  return f1 + mod10(f1) + f2 + mod10(f2) + f3 + mod10(f3) + barcode[4] + barcode.slice(5, 19);
}

/**
 * Check digit of a 3-digit COMPE bank code as printed beside it on the slip (`001-9`, `341-7`,
 * `104-0`): mod 11 with weights 2, 3, 4 from the right; a result of 10 or 11 prints 0.
 */
export function bankCheckDigit(bank: string): number {
  if (!/^\d{3}$/.test(bank)) throw new RangeError("bank must be 3 digits");
  const sum = Number(bank[2]) * 2 + Number(bank[1]) * 3 + Number(bank[0]) * 4;
  const r = 11 - (sum % 11);
  return r >= 10 ? 0 : r;
}

/** `00190.00009 01234.567897 01234.567178 3 16390000012345`: the printed form of a 47-digit line. */
export function formatLine(l: string): string {
  return `${l.slice(0, 5)}.${l.slice(5, 10)} ${l.slice(10, 15)}.${l.slice(15, 21)} ${l.slice(21, 26)}.${l.slice(26, 32)} ${l[32]} ${l.slice(33)}`;
}
