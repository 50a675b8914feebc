/** The integrity check (verifyLedger and `cofre ledger verify`) reports any balance that disagrees with the journal. */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHarness } from "../support/harness";
import { ManualClock } from "../../src/deps";
import { creditChargePayment, holdMed, verifyLedger } from "../../src/domain/ledger";
import { serverEnv, testDeps } from "../support/backend";
import { testDb } from "../support/test-db";

const ROOT = join(import.meta.dir, "../..");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function seeded() {
  const h = createHarness();
  const a = await h.seedAccount();
  await h.deps.store.tx((uow) =>
    creditChargePayment(h.deps, uow, {
      accountId: a.accountId,
      livemode: false,
      currency: "BRL",
      amount: 1_000,
      fee: 30,
      transactionId: "tx_1",
    }),
  );
  await h.deps.store.tx((uow) =>
    holdMed(h.deps, uow, { accountId: a.accountId, livemode: false, currency: "BRL", amount: 200, medCaseId: "med_1" }),
  );
  return { h, a };
}

describe("verifyLedger", () => {
  test("passes on a ledger written only through the posting API", async () => {
    const { h } = await seeded();
    const report = await verifyLedger(h.deps.store.read);
    expect(report).toEqual({ ok: true, checked: report.checked, mismatches: [] });
    expect(report.checked).toBeGreaterThan(5);
  });

  test("reports a tampered balance row with the expected and actual amounts", async () => {
    const { h, a } = await seeded();
    // One row: on PostgreSQL a bucket may have a row per write shard.
    await testDb(h.deps).run(
      "update ledger_balances set balance = balance + 1 where ledger_account = 'available' and shard = (select min(shard) from ledger_balances where ledger_account = 'available')",
    );
    const report = await verifyLedger(h.deps.store.read);
    expect(report.ok).toBe(false);
    expect(report.mismatches).toEqual([
      {
        kind: "balance",
        accountId: a.accountId,
        livemode: false,
        currency: "BRL",
        ledgerAccount: "available",
        expected: -200,
        actual: -199,
        message: expect.any(String),
      },
    ]);
  });

  test("reports a deleted balance row, an unbalanced line and a tampered tranche", async () => {
    const { h } = await seeded();
    const db = testDb(h.deps);
    await db.run("delete from ledger_balances where ledger_account = 'retained'");
    await db.run("update ledger_lines set amount = amount + 5 where ledger_account = 'platform_fee_revenue'");
    await db.run("update ledger_tranches set remaining = remaining - 1");
    const kinds = (await verifyLedger(h.deps.store.read)).mismatches.map((m) => m.kind).sort();
    expect(kinds).toEqual(["balance", "balance", "entry_unbalanced", "entry_unbalanced", "tranche"]);
  });
});

describe("cofre ledger verify", () => {
  async function makeDb() {
    const dir = mkdtempSync(join(tmpdir(), "cofre-ledger-"));
    dirs.push(dir);
    const deps = testDeps({
      dataDir: dir,
      clock: new ManualClock("2026-11-20T12:00:00.000Z"),
      config: { logLevel: "silent" },
    });
    await deps.store.tx((uow) => uow.accounts.insert({ id: "acct_cli", name: "CLI", createdAt: deps.clock.nowMs() }));
    await deps.store.tx((uow) =>
      creditChargePayment(deps, uow, {
        accountId: "acct_cli",
        livemode: true,
        currency: "BRL",
        amount: 5_000,
        fee: 0,
        transactionId: "tx_cli",
      }),
    );
    return { dir, deps };
  }
  function run(dir: string) {
    const p = Bun.spawnSync(["bun", "src/main.ts", "ledger", "verify"], {
      cwd: ROOT,
      env: { ...process.env, ...serverEnv(dir), LOG_LEVEL: "silent" },
    });
    return { code: p.exitCode, out: p.stdout.toString() };
  }

  test("prints an ok JSON report and exits 0 on a consistent database", async () => {
    const { dir, deps } = await makeDb();
    await deps.store.close();
    const { code, out } = run(dir);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ ok: true, checked: expect.any(Number), mismatches: [] });
  });

  test("reports a tampered balance and exits 1", async () => {
    const { dir, deps } = await makeDb();
    await testDb(deps).run("update ledger_balances set balance = 1 where ledger_account = 'pending'");
    await deps.store.close();
    const { code, out } = run(dir);
    expect(code).toBe(1);
    const report = JSON.parse(out);
    expect(report.ok).toBe(false);
    expect(report.mismatches).toContainEqual(
      expect.objectContaining({
        kind: "balance",
        accountId: "acct_cli",
        livemode: true,
        ledgerAccount: "pending",
        expected: 5_000,
        actual: 1,
      }),
    );
  });
});
