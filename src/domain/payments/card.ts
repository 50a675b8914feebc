/**
 * Sandbox card payments from the hosted checkout form: the test card number decides the outcome
 * (src/providers/sandbox/card.ts). Approve -> APPROVED; decline -> REFUSED; 3DS -> PROCESSING now,
 * then APPROVED or REFUSED when the (simulated) challenge completes, by the durable job
 * `payments.card_3ds` after CARD_3DS_SECONDS. Every status goes through applySettlementNotice.
 */
import type { Deps } from "../../deps";
import { ApiError, invalidParam } from "../../http/errors";
import { tx } from "../../db/client";
import type { TransactionRow } from "../../providers/types";
import { sandboxCardOutcome } from "../../providers/sandbox/card";
import { findById } from "../charges/repo";
import { applySettlementNotice, applySettlementNoticeIn } from "../charges/settlement";
import { offeredMethods } from "./views";

export const CARD_3DS_JOB = "payments.card_3ds";
/** Seconds the simulated 3DS challenge takes. */
export const CARD_3DS_SECONDS = 3;

/** Pays sandbox transaction `row` with card `number`; returns the row after the notice. Throws 400/404. */
export function payWithSandboxCard(deps: Deps, row: TransactionRow, number: string): TransactionRow {
  if (row.livemode) throw new ApiError("not_found", "No such checkout.");
  if (!offeredMethods(row).includes("CREDIT_CARD")) throw invalidParam("number", "This transaction does not offer CREDIT_CARD.");
  if (row.status !== "WAITING_PAYMENT" && row.status !== "PENDING")
    throw new ApiError("invalid_state", `The transaction is ${row.status}; only one awaiting payment can be paid.`);
  const outcome = sandboxCardOutcome(number);
  const base = { transactionId: row.id, method: "CREDIT_CARD" as const };
  switch (outcome) {
    case "invalid":
      throw invalidParam("number", "The card number is not valid (use one of the sandbox test cards).");
    case "approve":
      return applySettlementNotice(deps, { ...base, kind: "paid", amount: row.amount }).row;
    case "decline":
      return applySettlementNotice(deps, { ...base, kind: "declined", reason: "card_declined", providerErrorCode: "sandbox_card_declined" }).row;
    default:
      // PROCESSING and its completion job in one transaction: never a challenge nothing completes.
      return tx(deps.db, (t) => {
        const result = applySettlementNoticeIn(deps, t, { ...base, kind: "processing" });
        deps.jobs.enqueue(t, {
          kind: CARD_3DS_JOB,
          payload: { transactionId: row.id, approve: outcome === "3ds_approve" },
          dueAt: deps.clock.nowMs() + CARD_3DS_SECONDS * 1000,
          dedupeKey: `${CARD_3DS_JOB}:${row.id}`,
        });
        return result.row;
      });
  }
}

/** Registers the 3DS completion job. */
export function registerCardJobs(deps: Deps): void {
  deps.jobs.register(CARD_3DS_JOB, (job) => {
    const { transactionId, approve } = job.payload as { transactionId: string; approve: boolean };
    const row = findById(deps.db, transactionId);
    if (!row) return;
    const base = { transactionId, method: "CREDIT_CARD" as const };
    if (approve) applySettlementNotice(deps, { ...base, kind: "paid", amount: row.amount });
    else applySettlementNotice(deps, { ...base, kind: "declined", reason: "3ds_failed", providerErrorCode: "sandbox_3ds_failed" });
  });
}
