/**
 * Minor units (integer centavos) written as a decimal with a dot, without floating point: the one place this format is
 * built.
 */

/**
 * `minor` minor units as `[-]units.cc` with two decimals (12345 -> "123.45", 5 -> "0.05",
 * -1500 -> "-15.00"): API Pix `valor`, OFX `TRNAMT`, crypto amounts. Expects an integer.
 */
export function decimalOfMinor(minor: number): string {
  const abs = Math.abs(minor);
  return `${minor < 0 ? "-" : ""}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
