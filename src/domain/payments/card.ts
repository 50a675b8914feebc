/**
 * Card payments from the hosted checkout's sandbox form: the number goes to the transaction's
 * card provider as a payer notification; its outcome (the sandbox's test card table: approve,
 * decline, 3DS -> PROCESSING then a status check) is recorded through recordPaymentOutcome, so
 * every status still goes through applySettlementNotice.
 */
import type { Deps } from "../deps";
import { DomainError, invalidParam } from "../errors";
import type { SandboxPayerEvent, TransactionRow } from "../providers/types";
import { recordPaymentOutcome } from "../charges/outcomes";
import { isIn, WAITING } from "../charges/model";
import { offeredMethods } from "./views";

/** Pays sandbox transaction `row` with card `number`; returns the row after the outcome. Throws 400/404. */
export async function payWithSandboxCard(deps: Deps, row: TransactionRow, number: string): Promise<TransactionRow> {
  if (row.livemode) throw new DomainError("not_found", "No such checkout.");
  if (!offeredMethods(row).includes("CREDIT_CARD"))
    throw invalidParam("number", "This transaction does not offer CREDIT_CARD.");
  if (!isIn(WAITING, row.status))
    throw new DomainError("invalid_state", `The transaction is ${row.status}; only one awaiting payment can be paid.`);
  const provider = deps.providers.forMethod(row, "CREDIT_CARD");
  if (!provider) throw new DomainError("not_found", "No such checkout.");
  const body: SandboxPayerEvent = { kind: "card", number };
  const parsed = provider.parseNotification(deps.providers.ctx, { body, transaction: row });
  if (parsed.status !== "parsed") throw invalidParam(parsed.param ?? "number", parsed.message);
  const outcome = parsed.items[0]?.outcome;
  if (!outcome) return row;
  // PROCESSING and its status check commit together: never a challenge nothing completes.
  return (await recordPaymentOutcome(deps, row, "CREDIT_CARD", outcome)).row;
}
