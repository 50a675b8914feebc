/**
 * Payouts in the ledger (extensions.md "Payouts (money out)": "Ledger lines for every step;
 * `cofre ledger verify` covers them"): each step posts one balanced entry, and verifyLedger (what
 * the command runs) compares `payout_in_transit` with the payouts still in flight.
 */
import { describe, expect, test } from "bun:test";
import { verifyLedger } from "../../src/domain/ledger";
import { testDb } from "../support/test-db";
import { available, destination, fund, payout, setup } from "./support";

describe("payout postings", () => {
  test("accepted, paid, failed and cancelled payouts each post their balanced entry and verify stays clean", async () => {
    const { h, a } = await setup({ payoutFeeFixed: 25, payoutDelaySeconds: 30 });
    await fund(h, a, 10_000);
    const d = await destination(h, a);
    const ids = [];
    for (const amount of [1_000, 2_000, 3_000, 500])
      ids.push((await payout(h, a.testKey, { amount, destination_id: d.id })).body.id);
    await h.call("POST", `/v1/test_helpers/payouts/${ids[1]}/fail`, { key: a.testKey, body: {} });
    await h.call("POST", `/v1/payouts/${ids[2]}/cancel`, { key: a.testKey, body: {} });
    h.clock.advance(30);
    await h.deps.jobs.drain(); // ids[0] and ids[3] are sent
    h.clock.advance(10);
    await h.deps.jobs.drain(); // ... and paid
    expect(await available(h, a.testKey)).toBe(10_000 - 1_025 - 525);
    const kinds = await testDb(h.deps).all<{ kind: string; cause_id: string }>(
      "select kind, cause_id from ledger_entries where cause_kind = 'payout' order by created_at, id",
    );
    const of = (id: string) => kinds.filter((k) => k.cause_id === id).map((k) => k.kind);
    expect([of(ids[0]), of(ids[1]), of(ids[2]), of(ids[3])]).toEqual([
      ["payout", "payout_paid"],
      ["payout", "payout_reversal"],
      ["payout", "payout_reversal"],
      ["payout", "payout_paid"],
    ]);
    const report = await verifyLedger(h.deps.store.read);
    expect(report.mismatches).toEqual([]);
    expect(report.ok).toBe(true);
  });

  test("verify reports a payout marked failed whose money never came back", async () => {
    const { h, a } = await setup();
    await fund(h, a, 1_000);
    const po = (await payout(h, a.testKey, { amount: 400, destination_id: (await destination(h, a)).id })).body;
    expect((await verifyLedger(h.deps.store.read)).ok).toBe(true);
    await testDb(h.deps).run("update payouts set status = 'failed' where id = ?", po.id);
    const report = await verifyLedger(h.deps.store.read);
    expect(report.ok).toBe(false);
    expect(report.mismatches).toEqual([
      {
        kind: "payout",
        accountId: a.accountId,
        livemode: false,
        currency: "BRL",
        ledgerAccount: "payout_in_transit",
        expected: 0,
        actual: 400,
        message: "payout_in_transit differs from the payouts still pending or processing",
      },
    ]);
  });
});
