/** Shared helpers of the payments and refunds tests. */
import { expect } from "bun:test";
import type { Harness, SeededAccount } from "../support/harness";
import type { NewTransactionRow, TransactionRow } from "../../src/store/rows";
import { testDb } from "../support/test-db";

/**
 * Fields no /v1/payments response may carry (interface.md "never returned"). Copied from the spec
 * on purpose, not imported from src: the oracle must not change when the code under test does.
 */
export const FORBIDDEN = [
  "provider",
  "providerAccountId",
  "providerTransactionId",
  "providerFeeSource",
  "cardClientSecret",
  "tenantId",
  "providerFee",
  "netAmount",
];

export const CREATE_FIELDS = [
  "amount",
  "createdAt",
  "currency",
  "customerDocument",
  "customerEmail",
  "customerName",
  "id",
  "metadata",
  "paymentMethods",
  "status",
];
export const GET_FIELDS = [
  ...CREATE_FIELDS,
  "paidWith",
  "pixQrCode",
  "pixCopyPaste",
  "pixExpiresAt",
  "cardRedirectUrl",
  "mbEntity",
  "mbReference",
  "mbExpiresAt",
  "boletoBarcode",
  "boletoLine",
  "boletoPdfUrl",
  "boletoExpiresAt",
  "cryptoAddress",
  "cryptoAmount",
  "cryptoNetwork",
  "cryptoCurrency",
  "platformFee",
  "paidAt",
  "card",
].sort();
export const REFUND_FIELDS = ["amount", "createdAt", "currency", "id", "reason", "status", "transactionId"];

/** Fails when any forbidden key appears anywhere in `body` (deep). */
export function expectNoForbidden(body: unknown): void {
  const seen: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        if (FORBIDDEN.includes(k)) seen.push(k);
        walk(x);
      }
  };
  walk(body);
  expect(seen).toEqual([]);
}

let n = 0;
/** A fresh idempotency key. */
export const key = (p = "idem") => `${p}-${++n}-${Math.random().toString(36).slice(2, 10)}`;

/** Creates a payment (201 expected) and returns its create body. */
export async function createPayment(
  h: Harness,
  a: SeededAccount,
  body: Record<string, unknown> = {},
  apiKey = a.testKey,
) {
  const r = await h.call("POST", "/v1/payments", {
    key: apiKey,
    body: { amount: 1000, paymentMethods: ["PIX"], idempotencyKey: key(), ...body },
  });
  expect(r.status).toBe(201);
  return r.body;
}

/** Pays `id` through the sandbox helper (method default PIX). */
export async function pay(h: Harness, a: SeededAccount, id: string, body: Record<string, unknown> = {}) {
  const r = await h.call("POST", `/v1/test_helpers/charges/${id}/pay`, { key: a.testKey, body });
  expect(r.status).toBe(200);
  return r.body;
}

/** A paid PIX payment of `amount`. */
export async function paidPayment(h: Harness, a: SeededAccount, amount = 1000, extra: Record<string, unknown> = {}) {
  const p = await createPayment(h, a, { amount, ...extra });
  await pay(h, a, p.id, extra.paymentMethods ? { method: (extra.paymentMethods as string[])[0] } : {});
  return p;
}

/** Event types stored for transaction `id`, oldest first (by created_at, then id: UUIDv7, so write order). */
export async function eventTypes(h: Harness, id: string): Promise<string[]> {
  const rows = await testDb(h.deps).all<{ type: string }>(
    "select type from events where transaction_id = ? order by created_at, id",
    id,
  );
  return rows.map((e) => e.type);
}

/** Bodies of events of `type` for `id`, oldest first. */
export async function eventBodies(h: Harness, id: string, type: string): Promise<any[]> {
  const rows = await testDb(h.deps).all<{ body: string }>(
    "select body from events where transaction_id = ? and type = ? order by created_at, id",
    id,
    type,
  );
  return rows.map((e) => JSON.parse(e.body));
}

/** Forces a transaction status (for states no public route reaches yet, e.g. DISPUTE). */
export async function forceStatus(h: Harness, id: string, status: string): Promise<void> {
  await testDb(h.deps).run("update transactions set status = ? where id = ?", status, id);
}

/** Makes a transaction live (no live provider serves payments in tests): for live-mode documents. */
export async function forceLive(h: Harness, id: string): Promise<void> {
  await testDb(h.deps).run("update transactions set livemode = ? where id = ?", true, id);
}

/** A complete `transactions` row from `fields`, the other columns at their schema defaults (setup rows no API writes). */
export function transactionRow(fields: NewTransactionRow): TransactionRow {
  return {
    paidWith: null,
    customerId: null,
    customerName: null,
    customerDocument: null,
    customerEmail: null,
    customerPhone: null,
    expectedPayerTaxId: null,
    payerLockApplied: false,
    metadata: "{}",
    webhookUrl: null,
    pixBrCode: null,
    pixTxid: null,
    pixLocation: null,
    expiresAt: null,
    providerConnectionId: null,
    ttlSeconds: null,
    methodDetails: "{}",
    endToEndId: null,
    platformFee: null,
    refundedAmount: 0,
    paidAt: null,
    ...fields,
  };
}
