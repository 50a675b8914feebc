/**
 * Helpers of the statement tests (extensions.md "Statement, exports and reconciliation"): movements posted through the
 * ledger's own entry points, and readers.
 */
import { expect } from "bun:test";
import {
  creditChargePayment,
  debitPayout,
  debitRefund,
  holdMed,
  restoreRefund,
  reversePayout,
  settleMedHold,
  settlePayout,
} from "../../src/domain/ledger";
import { newId, rawId } from "../../src/lib/ids";
import type { Harness, SeededAccount } from "../support/harness";

/** The fields of a statement line, copied from the spec as the oracle. */
export const LINE_FIELDS = [
  "amount",
  "available_on",
  "balance_after",
  "created_at",
  "description",
  "id",
  "reference_id",
  "type",
];
export const LIST_FIELDS = ["data", "has_more", "next_cursor", "object"];

/** Who moves money: the harness, the account and the mode. */
export interface Wallet {
  h: Harness;
  a: SeededAccount;
  livemode?: boolean;
}

const scope = (w: Wallet) => ({ accountId: w.a.accountId, livemode: w.livemode ?? false, currency: "BRL" });

/** A paid charge of `amount` with `fee` (the real posting of settlement); resolves to its transaction id. */
export async function charge(w: Wallet, amount: number, fee = 0): Promise<string> {
  const transactionId = rawId();
  await w.h.deps.store.tx((uow) => creditChargePayment(w.h.deps, uow, { ...scope(w), amount, fee, transactionId }));
  return transactionId;
}

/** A refund of `amount` of `transactionId` (optional Pix-out fee); resolves to its id. */
export async function refund(w: Wallet, transactionId: string, amount: number, pixOutFee = 0): Promise<string> {
  const refundId = newId("refund");
  await w.h.deps.store.tx((uow) =>
    debitRefund(w.h.deps, uow, { ...scope(w), amount, refundId, transactionId, pixOutFee }),
  );
  return refundId;
}

/** The refund failed: its debit is reversed. */
export async function failRefund(w: Wallet, refundId: string): Promise<void> {
  await w.h.deps.store.tx((uow) => restoreRefund(w.h.deps, uow, { refundId }));
}

/** A payout of `amount` plus `fee` accepted (ledger posting only); resolves to its id. */
export async function payoutPosted(w: Wallet, amount: number, fee = 0): Promise<string> {
  const payoutId = newId("payout");
  await w.h.deps.store.tx((uow) => debitPayout(w.h.deps, uow, { ...scope(w), amount, fee, payoutId }));
  return payoutId;
}

/** The payout was paid (`paid`) or failed/cancelled (`reversed`). */
export async function endPayout(w: Wallet, payoutId: string, how: "paid" | "reversed"): Promise<void> {
  await w.h.deps.store.tx((uow) =>
    how === "paid" ? settlePayout(w.h.deps, uow, payoutId) : reversePayout(w.h.deps, uow, payoutId),
  );
}

/** A MED hold of `amount`; resolves to the case id. */
export async function hold(w: Wallet, amount: number): Promise<string> {
  const medCaseId = newId("medCase");
  await w.h.deps.store.tx((uow) => holdMed(w.h.deps, uow, { ...scope(w), amount, medCaseId }));
  return medCaseId;
}

/** Ends a MED hold with `outcome`. */
export async function endHold(w: Wallet, medCaseId: string, outcome: "refunded_to_merchant" | "lost"): Promise<void> {
  await w.h.deps.store.tx((uow) => settleMedHold(w.h.deps, uow, { medCaseId, outcome }));
}

/** The wallet's total (available + pending) through GET /v1/wallets/balance. */
export async function total(h: Harness, key: string): Promise<number> {
  const r = await h.call("GET", "/v1/wallets/balance", { key });
  expect(r.status).toBe(200);
  return r.body.available + r.body.pending;
}

/** GET /v1/wallets/statement with `query` (asserts 200). */
export async function statement(h: Harness, key: string, query = ""): Promise<any> {
  const r = await h.call("GET", `/v1/wallets/statement${query ? `?${query}` : ""}`, { key });
  expect(r.status).toBe(200);
  return r.body;
}

/** Every line of the statement (`query` without limit/cursor), following next_cursor with pages of `limit`. */
export async function allLines(h: Harness, key: string, query = "", limit = 100): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  for (;;) {
    const parts = [query, `limit=${limit}`, cursor ? `starting_after=${cursor}` : ""].filter(Boolean).join("&");
    const page = await statement(h, key, parts);
    out.push(...page.data);
    if (!page.has_more) return out;
    cursor = page.next_cursor;
  }
}
