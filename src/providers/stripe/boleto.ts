/**
 * The boleto numbers Stripe shows (`boleto_display_details.number`, the 47-digit typeable line) as Cofre stores them.
 */

/**
 * The 44-digit barcode of a 47-digit bank boleto line (the inverse of src/formats/boleto.ts
 * `barcodeToLine`): bank + currency, general check digit, due factor + value, then the 25-digit
 * free field without the fields' mod-10 digits. A line of another length is returned as it is.
 */
export function boletoBarcodeOfLine(line: string): string {
  if (!/^\d{47}$/.test(line)) return line;
  return line.slice(0, 4) + line[32] + line.slice(33, 47) + line.slice(4, 9) + line.slice(10, 20) + line.slice(21, 31);
}
