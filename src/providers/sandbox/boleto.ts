/**
 * Sandbox BOLETO: a bank boleto (bank 001 layout) due 3 calendar days after creation in
 * America/Sao_Paulo, with a FEBRABAN barcode and typeable line (src/payments/boleto.ts). The PDF
 * is served at `/v1/boletos/<raw id>.pdf` (src/http/routes/payments/checkout.ts).
 */
import { buildBoleto } from "../../payments/boleto";
import { addDays, endOfSaoPauloDay, saoPauloDate } from "../../payments/calendar";
import { registerSandboxProvider } from "../registry";
import type { MethodProvider } from "../types";

export const SANDBOX_BOLETO_BANK = "001";
/** Calendar days from creation to the due date. */
export const BOLETO_DUE_DAYS = 3;

/** The 25-digit free field: a fixed sandbox agreement number plus 17 digits of the transaction id. */
export function boletoFreeField(rawId: string): string {
  const ourNumber = String(BigInt(`0x${rawId.slice(-16)}`) % 10n ** 17n).padStart(17, "0");
  return `000000${ourNumber}21`.slice(0, 25);
}

export const sandboxBoleto: MethodProvider = {
  method: "BOLETO",
  supportsRefund: false,
  prepare(ctx) {
    const dueDate = addDays(saoPauloDate(ctx.deps.clock.nowMs()), BOLETO_DUE_DAYS);
    const { barcode, line } = buildBoleto({ bank: SANDBOX_BOLETO_BANK, amount: ctx.tx.amount, dueDate, freeField: boletoFreeField(ctx.tx.id) });
    return { details: { barcode, line, dueDate, expiresAt: new Date(endOfSaoPauloDay(dueDate)).toISOString() } };
  },
};

registerSandboxProvider(sandboxBoleto);
