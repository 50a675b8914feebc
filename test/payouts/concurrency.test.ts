/**
 * Concurrent payouts never overdraw (issue 24 §1; extensions.md "Concurrent payouts never
 * overdraw"): many POST /v1/payouts of one account at once, on SQLite and (COFRE_TEST_PG=1) on
 * PostgreSQL, where each unit runs on its own connection and the ledger's debit lock serialises
 * them: exactly floor(available / (amount + fee)) succeed, the rest are 400
 * `insufficient_balance` (never a 500), and the ledger stays balanced with `available` at the rest.
 */
import { describe, expect, test } from "bun:test";
import { verifyLedger } from "../../src/domain/ledger";
import { testDb } from "../support/test-db";
import { available, destination, fund, payout, setup } from "./support";

describe("many payouts at once", () => {
  test("exactly floor(available / (amount + fee)) of 25 concurrent payouts succeed; the others are insufficient_balance", async () => {
    const { h, a } = await setup({ payoutFeeFixed: 7 });
    await fund(h, a, 10_500);
    const d = await destination(h, a);
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => payout(h, a.testKey, { amount: 993, destination_id: d.id })),
    );
    const statuses = answers.map((r) => `${r.status} ${r.body.error?.code ?? ""}`.trim());
    expect(statuses.filter((s) => s === "201")).toHaveLength(Math.floor(10_500 / 1_000));
    expect(statuses.filter((s) => s === "400 insufficient_balance")).toHaveLength(25 - 10);
    expect(await available(h, a.testKey)).toBe(500);
    const rows = await testDb(h.deps).all<{ n: number }>(
      "select count(*) as n from payouts where account_id = ?",
      a.accountId,
    );
    expect(Number(rows[0]!.n)).toBe(10);
    expect((await verifyLedger(h.deps.store.read)).mismatches).toEqual([]);
  });

  test("concurrent payouts within the balance never pass the daily limit together", async () => {
    const { h, a } = await setup({ payoutDailyLimit: 3_000 });
    await fund(h, a, 100_000);
    const d = await destination(h, a);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => payout(h, a.testKey, { amount: 700, destination_id: d.id })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(4);
    expect(answers.filter((r) => r.status === 400 && r.body.error.code === "payout_limit_exceeded")).toHaveLength(8);
    expect(await available(h, a.testKey)).toBe(100_000 - 2_800);
  });
});
