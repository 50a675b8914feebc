/**
 * stripe-sim boleto numbers: a FEBRABAN bank boleto (Cofre's pure `buildBoleto`, bank 001 layout
 * as the sandbox uses) whose 25-digit free field comes from the PaymentIntent id, so the
 * "linha digitável" Stripe would return in `boleto_display_details.number` is well formed. Like
 * the sandbox, a free-field variant is chosen so the general check digit is not "1" (validators
 * that apply the arrecadação rule to bank boletos misread it).
 */
import { createHash } from "node:crypto";
import { buildBoleto } from "../formats/boleto";

/** `{barcode (44), line (47)}` for a boleto of `amount` centavos due on `dueDate` (YYYY-MM-DD), keyed by `seed`. */
export function boletoNumbers(seed: string, amount: number, dueDate: string): { barcode: string; line: string } {
  const hex = createHash("sha256").update(seed).digest("hex");
  const ours = (BigInt(`0x${hex.slice(0, 16)}`) % 10n ** 17n).toString().padStart(17, "0");
  let last = buildBoleto({ bank: "001", amount, dueDate, freeField: `000000${ours}21` });
  for (let v = 21; v < 121 && last.barcode[4] === "1"; v++)
    last = buildBoleto({ bank: "001", amount, dueDate, freeField: `000000${ours}${String(v % 100).padStart(2, "0")}` });
  return { barcode: last.barcode, line: last.line };
}
