/**
 * Sandbox payer (extensions.md `POST /v1/test_helpers/charges/{id}/pay` and the checkout's
 * "Simulate payment"): validates the simulated payment, sends it to the transaction's sandbox
 * provider as a payer notification and records the outcome (applySettlementNotice). Sandbox rows only.
 */
import type { Deps } from "../deps";
import { DomainError, invalidParam } from "../errors";
import { parseTaxId } from "../../pix/tax-id";
import type { SandboxPayerEvent, TransactionRow } from "../providers/types";
import { PAYMENT_METHODS, PUBLIC_STATUS, type PaymentMethod, type TransactionStatus } from "./model";
import { recordPaymentOutcome } from "./outcomes";
import type { SettlementResult } from "./settlement";

export interface SimulatedPayment {
  /** Minor units; default the charge amount (a different amount is returned to the payer). */
  amount?: number;
  /** Default PIX (the first offered method when PIX is not offered); any method the transaction offers. */
  method?: string;
  outcome?: "succeed" | "decline";
  /** Default: expected payer tax id, else customer document. */
  payer_tax_id?: string;
  payer_name?: string;
  /** false = the bank did not disclose the payer's document. */
  disclose_payer?: boolean;
}

/**
 * Pays (or declines) the `pending` sandbox transaction `row`. Throws 400 `invalid_state` when it is
 * not pending or its `expires_at` has passed (it is expired then), 400 `invalid_request` for a
 * method it does not offer, 403 `test_mode_only` for live rows.
 */
export async function simulatePayment(
  deps: Deps,
  row: TransactionRow,
  input: SimulatedPayment,
): Promise<SettlementResult> {
  if (row.livemode) throw new DomainError("test_mode_only", "Only sandbox charges can be paid by simulation.");
  if (PUBLIC_STATUS[row.status as TransactionStatus] !== "pending")
    throw new DomainError(
      "invalid_state",
      `The charge is ${PUBLIC_STATUS[row.status as TransactionStatus]}; only a pending charge can be paid.`,
    );
  const offered = JSON.parse(row.paymentMethods) as string[];
  const method = (
    input.method ??
    (offered.includes("PIX") ? "PIX" : offered[0]) ??
    "PIX"
  ).toUpperCase() as PaymentMethod;
  if (!PAYMENT_METHODS.includes(method) || !offered.includes(method))
    throw invalidParam("method", `The charge does not offer ${input.method}; offered: ${offered.join(", ")}.`);
  const provider = deps.providers.forMethod(row, method);
  if (!provider) throw new DomainError("test_mode_only", "Only sandbox charges can be paid by simulation.");
  let payerTaxId: string | null = row.expectedPayerTaxId ?? row.customerDocument ?? null;
  if (input.outcome !== "decline" && input.payer_tax_id !== undefined) {
    const parsed = parseTaxId(input.payer_tax_id);
    if (!parsed) throw invalidParam("payer_tax_id", "payer_tax_id must be a valid CPF or CNPJ.", "invalid_tax_id");
    payerTaxId = parsed.value;
  }
  const disclosed = input.disclose_payer !== false;
  const body: SandboxPayerEvent = {
    kind: "pay",
    method,
    outcome: input.outcome ?? "succeed",
    amount: input.amount ?? row.amount,
    payerTaxId: disclosed ? payerTaxId : null,
    payerName: input.payer_name ?? row.customerName ?? null,
    disclosed,
  };
  const parsed = provider.parseNotification(deps.providers.ctx, { body, transaction: row });
  const outcome = parsed.status === "parsed" ? parsed.items[0]?.outcome : undefined;
  if (!outcome) throw new Error(`the sandbox provider did not understand a payer event (${parsed.status})`);
  const result = await recordPaymentOutcome(deps, row, method, outcome);
  // The window passed before the payer paid: the charge just expired (committed), nothing was paid.
  if (result.outcome === "expired")
    throw new DomainError("invalid_state", "The charge is expired; only a pending charge can be paid.");
  return result;
}
