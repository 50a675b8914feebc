/**
 * Multibanco references (pure): entity 5 digits, reference 9 digits whose last two are the SIBS
 * check digits = 98 - (weighted sum mod 97) over entity(5) + reference base(7) + amount(8,
 * cents). Weights are the published SIBS table (3*10^i mod 97 from the rightmost digit).
 */

const WEIGHTS = [3, 30, 9, 90, 27, 76, 81, 34, 49, 5, 50, 15, 53, 45, 62, 38, 89, 17, 73, 51];

/** Check digits (2 chars) of `entity` (5 digits), `base` (7 digits), `amountCents` (<= 8 digits). */
export function sibsCheckDigits(entity: string, base: string, amountCents: number): string {
  if (!/^\d{5}$/.test(entity)) throw new RangeError("entity must be 5 digits");
  if (!/^\d{7}$/.test(base)) throw new RangeError("reference base must be 7 digits");
  if (!Number.isInteger(amountCents) || amountCents < 0 || amountCents > 99_999_999)
    throw new RangeError("amount out of range");
  const s = entity + base + String(amountCents).padStart(8, "0");
  let sum = 0;
  for (let i = 0; i < 20; i++) sum += Number(s[19 - i]) * WEIGHTS[i]!;
  return String(98 - (sum % 97)).padStart(2, "0");
}

/** Full 9-digit reference: `base` + its check digits. */
export function multibancoReference(entity: string, base: string, amountCents: number): string {
  return base + sibsCheckDigits(entity, base, amountCents);
}

/** `123 456 789` display form of a 9-digit reference. */
export function formatReference(ref: string): string {
  return `${ref.slice(0, 3)} ${ref.slice(3, 6)} ${ref.slice(6)}`;
}
