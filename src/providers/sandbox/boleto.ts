/**
 * Sandbox BOLETO: a bank boleto (bank 001 layout) due 3 calendar days after creation in
 * America/Sao_Paulo, with a FEBRABAN barcode and typeable line (src/formats/boleto.ts). The PDF
 * is served at `/v1/boletos/<raw id>.pdf` (src/http/routes/payments/checkout.ts).
 */
import { buildBoleto } from "../../formats/boleto";
import { addDays, endOfSaoPauloDay, saoPauloDate } from "../../lib/calendar";
import type { SandboxMethod } from "./method";
import { methodExpiryColumns } from "./expiry";

export const SANDBOX_BOLETO_BANK = "001";
/** Calendar days from creation to the due date. */
export const BOLETO_DUE_DAYS = 3;

/**
 * The 25-digit free field: a fixed sandbox agreement number, 17 digits of the transaction id and a
 * 2-digit variant. The variant is the first one (from 21) whose barcode general digit is not 1:
 * a FEBRABAN-valid "1" (results 0, 10 and 11) is misread by validators that apply the
 * arrecadação rule to bank boletos (e.g. @mrmgomes/boleto-utils), so the sandbox avoids it.
 */
export function boletoFreeField(rawId: string, amount = 0, dueDate?: string): string {
  const ourNumber = String(BigInt(`0x${rawId.slice(-16)}`) % 10n ** 17n).padStart(17, "0");
  for (let v = 21; v < 121; v++) {
    const free = `000000${ourNumber}${String(v % 100).padStart(2, "0")}`;
    if (!dueDate || buildBoleto({ bank: SANDBOX_BOLETO_BANK, amount, dueDate, freeField: free }).barcode[4] !== "1")
      return free;
  }
  return `000000${ourNumber}21`;
}

export const sandboxBoleto: SandboxMethod = {
  method: "BOLETO",
  refundable: false,
  prepare(ctx, tx) {
    const dueDate = addDays(saoPauloDate(ctx.clock.nowMs()), BOLETO_DUE_DAYS);
    const { barcode, line } = buildBoleto({
      bank: SANDBOX_BOLETO_BANK,
      amount: tx.amount,
      dueDate,
      freeField: boletoFreeField(tx.id, tx.amount, dueDate),
    });
    const until = endOfSaoPauloDay(dueDate);
    return {
      columns: methodExpiryColumns(tx, until),
      details: { barcode, line, dueDate, expiresAt: new Date(until).toISOString() },
    };
  },
};
