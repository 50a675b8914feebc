/**
 * Ledger postings: credits, releases, refunds, restores and MED holds move exact amounts and keep the journal balanced.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { expectLedgerBalanced, ledgerBalance } from "../support/ledger";
import { DomainError } from "../../src/domain/errors";
import { statusOf } from "../../src/http/errors";
import {
  creditChargePayment,
  debitRefund,
  getBalance,
  holdMed,
  LEDGER_RELEASE_JOB,
  restoreRefund,
  settleMedHold,
} from "../../src/domain/ledger";
import { LedgerInvariantError, postEntry } from "../../src/domain/ledger/post";
import { testDb } from "../support/test-db";

let h: Harness;
let a: SeededAccount;
const DAY = 86400;

beforeEach(async () => {
  h = createHarness();
  a = await h.seedAccount();
});

function credit(amount: number, fee: number, transactionId: string, livemode = false) {
  return h.deps.store.tx((uow) =>
    creditChargePayment(h.deps, uow, { accountId: a.accountId, livemode, currency: "BRL", amount, fee, transactionId }),
  );
}
function refund(amount: number, refundId: string, transactionId: string, pixOutFee?: number) {
  return h.deps.store.tx((uow) =>
    debitRefund(h.deps, uow, {
      accountId: a.accountId,
      livemode: false,
      currency: "BRL",
      amount,
      refundId,
      transactionId,
      pixOutFee,
    }),
  );
}
async function releaseAll() {
  h.clock.advance(DAY);
  await h.deps.jobs.drain();
}

describe("crediting a paid charge", () => {
  test("puts the net in pending, the fee in platform revenue and schedules one release", async () => {
    const start = h.clock.nowMs();
    const { releaseAt } = await credit(10_000, 150, "tx_1");
    expect(releaseAt).toBe(start + DAY * 1000);
    expect(await getBalance(h.deps.store.read, a.accountId, false, "BRL")).toEqual({
      available: 0,
      pending: 9_850,
      retained: 0,
      nextReleaseAt: releaseAt,
      nextReleaseAmount: 9_850,
    });
    expect(await h.deps.jobs.pending(LEDGER_RELEASE_JOB)).toBe(1);
    const lines = await testDb(h.deps).all<{ ledger_account: string; amount: number }>(
      "select ledger_account, amount from ledger_lines",
    );
    expect(lines.map((l) => [l.ledger_account, l.amount]).sort()).toEqual([
      ["external_payer", -10_000],
      ["pending", 9_850],
      ["platform_fee_revenue", 150],
    ]);
    await expectLedgerBalanced(h.deps);
  });

  test("a second credit of the same transaction is a no-op returning the same release time", async () => {
    const first = await credit(10_000, 0, "tx_1");
    h.clock.advance(60);
    const second = await credit(10_000, 0, "tx_1");
    expect(second).toEqual(first);
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 0, pending: 10_000, retained: 0 });
    expect(await testDb(h.deps).all("select id from ledger_entries")).toHaveLength(1);
    expect(await h.deps.jobs.pending(LEDGER_RELEASE_JOB)).toBe(1);
  });

  test("uses the account's settlement delay, and a zero delay makes the net available at once", async () => {
    const b = await h.seedAccount({ settings: { settlementDelaySeconds: 0 } });
    const { releaseAt } = await h.deps.store.tx((uow) =>
      creditChargePayment(h.deps, uow, {
        accountId: b.accountId,
        livemode: false,
        currency: "BRL",
        amount: 500,
        fee: 0,
        transactionId: "tx_z",
      }),
    );
    expect(releaseAt).toBe(h.clock.nowMs());
    expect(await getBalance(h.deps.store.read, b.accountId, false, "BRL")).toEqual({
      available: 500,
      pending: 0,
      retained: 0,
      nextReleaseAt: null,
      nextReleaseAmount: null,
    });
    await expectLedgerBalanced(h.deps);
  });

  test("a fee equal to the amount leaves nothing for the merchant and no tranche", async () => {
    await credit(100, 100, "tx_f");
    expect(await getBalance(h.deps.store.read, a.accountId, false, "BRL")).toEqual({
      available: 0,
      pending: 0,
      retained: 0,
      nextReleaseAt: null,
      nextReleaseAmount: null,
    });
    expect(await h.deps.jobs.pending(LEDGER_RELEASE_JOB)).toBe(0);
    await expectLedgerBalanced(h.deps);
  });

  test("rejects a non-integer amount, a negative fee or a fee above the amount and writes nothing", async () => {
    await expect(credit(10.5, 0, "tx_x")).rejects.toThrow(LedgerInvariantError);
    await expect(credit(100, -1, "tx_x")).rejects.toThrow(LedgerInvariantError);
    await expect(credit(100, 101, "tx_x")).rejects.toThrow(LedgerInvariantError);
    await expect(credit(0, 0, "tx_x")).rejects.toThrow(LedgerInvariantError);
    expect(await testDb(h.deps).all("select id from ledger_entries")).toHaveLength(0);
  });
});

describe("releasing pending tranches", () => {
  test("moves the tranche to available only once its time has come", async () => {
    await credit(10_000, 0, "tx_1");
    h.clock.advance(DAY - 1);
    await h.deps.jobs.drain();
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 0, pending: 10_000, retained: 0 });
    h.clock.advance(1);
    await h.deps.jobs.drain();
    expect(await getBalance(h.deps.store.read, a.accountId, false, "BRL")).toEqual({
      available: 10_000,
      pending: 0,
      retained: 0,
      nextReleaseAt: null,
      nextReleaseAmount: null,
    });
    expect(await h.deps.jobs.pending(LEDGER_RELEASE_JOB)).toBe(0);
    await expectLedgerBalanced(h.deps);
  });

  test("reports the earliest tranche as the next release, summing tranches due at the same time", async () => {
    const r1 = await credit(1_000, 0, "tx_1");
    await credit(2_000, 0, "tx_2");
    h.clock.advance(3600);
    const r3 = await credit(4_000, 0, "tx_3");
    let b = await getBalance(h.deps.store.read, a.accountId, false, "BRL");
    expect([b.pending, b.nextReleaseAt, b.nextReleaseAmount]).toEqual([7_000, r1.releaseAt, 3_000]);
    h.clock.advance(DAY - 3600);
    await h.deps.jobs.drain();
    b = await getBalance(h.deps.store.read, a.accountId, false, "BRL");
    expect([b.available, b.pending, b.nextReleaseAt, b.nextReleaseAmount]).toEqual([3_000, 4_000, r3.releaseAt, 4_000]);
    await expectLedgerBalanced(h.deps);
  });
});

describe("debiting refunds", () => {
  test("takes the refund from available when it covers it", async () => {
    await credit(10_000, 0, "tx_1");
    await releaseAll();
    await refund(3_000, "re_1", "tx_1");
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 7_000, pending: 0, retained: 0 });
    await expectLedgerBalanced(h.deps);
  });

  test("takes the shortfall from the unreleased tranche of the same transaction", async () => {
    await credit(1_000, 0, "tx_old");
    await releaseAll();
    await credit(5_000, 0, "tx_1");
    await refund(3_000, "re_1", "tx_1");
    const b = await getBalance(h.deps.store.read, a.accountId, false, "BRL");
    expect([b.available, b.pending, b.nextReleaseAmount]).toEqual([0, 3_000, 3_000]);
    await releaseAll();
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 3_000, pending: 0, retained: 0 });
    await expectLedgerBalanced(h.deps);
  });

  test("refuses with insufficient_balance when available and the tranche cannot cover it, writing nothing", async () => {
    await credit(5_000, 0, "tx_1");
    await credit(9_000, 0, "tx_other");
    let err: unknown;
    try {
      await refund(5_001, "re_1", "tx_1");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe("insufficient_balance");
    expect(statusOf(err as DomainError)).toBe(400);
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 0, pending: 14_000, retained: 0 });
    await expectLedgerBalanced(h.deps);
  });

  test("debits the Pix-out fee from available to platform revenue", async () => {
    await credit(10_000, 0, "tx_1");
    await releaseAll();
    await refund(4_000, "re_1", "tx_1", 90);
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 5_910, pending: 0, retained: 0 });
    const rows = await testDb(h.deps).all<{ amount: number }>(
      "select amount from ledger_lines where ledger_account = ?",
      "platform_fee_revenue",
    );
    expect(rows.map((r) => r.amount)).toEqual([90]);
    await expectLedgerBalanced(h.deps);
  });

  test("refuses a Pix-out fee that available cannot cover even when pending covers the refund", async () => {
    await credit(10_000, 0, "tx_1");
    await expect(refund(4_000, "re_1", "tx_1", 90)).rejects.toThrow(DomainError);
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 0, pending: 10_000, retained: 0 });
  });

  test("a repeated refund id is a no-op", async () => {
    await credit(10_000, 0, "tx_1");
    await releaseAll();
    await refund(1_000, "re_1", "tx_1");
    await refund(1_000, "re_1", "tx_1");
    expect((await ledgerBalance(h.deps, a.accountId)).available).toBe(9_000);
  });
});

describe("restoring failed refunds", () => {
  test("returns the exact amounts to available, the tranche and the fee payer", async () => {
    await credit(2_000, 0, "tx_a");
    await releaseAll();
    await credit(5_000, 0, "tx_1");
    await refund(4_000, "re_1", "tx_1", 100);
    // fee 100 and 1_900 of the refund from available, 2_100 from the tranche
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 0, pending: 2_900, retained: 0 });
    await h.deps.store.tx((uow) => restoreRefund(h.deps, uow, { refundId: "re_1" }));
    const b = await getBalance(h.deps.store.read, a.accountId, false, "BRL");
    expect([b.available, b.pending, b.nextReleaseAmount]).toEqual([2_000, 5_000, 5_000]);
    await h.deps.store.tx((uow) => restoreRefund(h.deps, uow, { refundId: "re_1" }));
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 2_000, pending: 5_000, retained: 0 });
    await expectLedgerBalanced(h.deps);
  });

  test("sends the pending part to available when the tranche was released meanwhile", async () => {
    await credit(5_000, 0, "tx_1");
    await refund(1_500, "re_1", "tx_1");
    await releaseAll();
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 3_500, pending: 0, retained: 0 });
    await h.deps.store.tx((uow) => restoreRefund(h.deps, uow, { refundId: "re_1" }));
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 5_000, pending: 0, retained: 0 });
    await expectLedgerBalanced(h.deps);
  });

  test("is a no-op for a refund that was never debited", async () => {
    await h.deps.store.tx((uow) => restoreRefund(h.deps, uow, { refundId: "re_never" }));
    expect(await testDb(h.deps).all("select id from ledger_entries")).toHaveLength(0);
  });
});

describe("MED holds", () => {
  function hold(amount: number, medCaseId: string, livemode = false) {
    return h.deps.store.tx((uow) =>
      holdMed(h.deps, uow, { accountId: a.accountId, livemode, currency: "BRL", amount, medCaseId }),
    );
  }
  function settle(medCaseId: string, outcome: "refunded_to_merchant" | "closed_without_refund" | "lost") {
    return h.deps.store.tx((uow) => settleMedHold(h.deps, uow, { medCaseId, outcome }));
  }

  test("moves the amount from available to retained and may drive available negative", async () => {
    await credit(1_000, 0, "tx_1");
    await releaseAll();
    await hold(3_000, "med_1");
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: -2_000, pending: 0, retained: 3_000 });
    await hold(3_000, "med_1");
    expect((await ledgerBalance(h.deps, a.accountId)).retained).toBe(3_000);
    await expectLedgerBalanced(h.deps);
  });

  test("refunded_to_merchant returns the held amount to available", async () => {
    await hold(3_000, "med_1");
    await settle("med_1", "refunded_to_merchant");
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: 0, pending: 0, retained: 0 });
    await expectLedgerBalanced(h.deps);
  });

  test.each(["lost", "closed_without_refund"] as const)(
    "%s pays the held amount out and it stays debited",
    async (outcome) => {
      await hold(3_000, "med_1");
      await settle("med_1", outcome);
      await settle("med_1", "refunded_to_merchant");
      expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: -3_000, pending: 0, retained: 0 });
      const payer = await testDb(h.deps).all<{ amount: number }>(
        "select amount from ledger_lines where ledger_account = ?",
        "external_payer",
      );
      expect(payer.map((l) => l.amount)).toEqual([3_000]);
      await expectLedgerBalanced(h.deps);
    },
  );

  test("settling a case without a hold throws and writes nothing", async () => {
    await expect(settle("med_none", "lost")).rejects.toThrow(LedgerInvariantError);
    expect(await testDb(h.deps).all("select id from ledger_entries")).toHaveLength(0);
  });

  test("a refund never spends negative available: it draws from pending instead", async () => {
    await hold(500, "med_1");
    await credit(2_000, 0, "tx_1");
    await refund(1_000, "re_1", "tx_1");
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: -500, pending: 1_000, retained: 500 });
    await expectLedgerBalanced(h.deps);
  });
});

describe("test and live separation", () => {
  test("live postings never show in test balances, and a live refund cannot use a test tranche", async () => {
    await credit(7_000, 0, "tx_live", true);
    await credit(1_000, 0, "tx_test", false);
    expect(await ledgerBalance(h.deps, a.accountId, true)).toEqual({ available: 0, pending: 7_000, retained: 0 });
    expect(await ledgerBalance(h.deps, a.accountId, false)).toEqual({ available: 0, pending: 1_000, retained: 0 });
    await expect(
      h.deps.store.tx((uow) =>
        debitRefund(h.deps, uow, {
          accountId: a.accountId,
          livemode: true,
          currency: "BRL",
          amount: 500,
          refundId: "re_x",
          transactionId: "tx_test",
        }),
      ),
    ).rejects.toThrow(DomainError);
    await expectLedgerBalanced(h.deps);
  });
});

describe("postEntry's balance rules", () => {
  function post(
    lines: {
      ledgerAccount: "available" | "pending" | "retained" | "platform_fee_revenue" | "external_payer";
      amount: number;
      trancheId?: string;
    }[],
    allowNegativeAvailable = false,
  ) {
    return h.deps.store.tx((uow) =>
      postEntry(uow, {
        accountId: a.accountId,
        livemode: false,
        currency: "BRL",
        kind: "test",
        causeKind: "test",
        causeId: "c1",
        idempotencyKey: "test:c1",
        lines,
        allowNegativeAvailable,
        now: h.clock.nowMs(),
      }),
    );
  }

  test("refuses to drive retained, platform revenue or (without a MED hold) available below zero, writing nothing", async () => {
    await expect(
      post([
        { ledgerAccount: "retained", amount: -1 },
        { ledgerAccount: "external_payer", amount: 1 },
      ]),
    ).rejects.toThrow(LedgerInvariantError);
    await expect(
      post([
        { ledgerAccount: "platform_fee_revenue", amount: -1 },
        { ledgerAccount: "external_payer", amount: 1 },
      ]),
    ).rejects.toThrow(LedgerInvariantError);
    await expect(
      post([
        { ledgerAccount: "available", amount: -1 },
        { ledgerAccount: "external_payer", amount: 1 },
      ]),
    ).rejects.toThrow(LedgerInvariantError);
    await expect(
      post([
        { ledgerAccount: "pending", amount: -1, trancheId: "tr_x" },
        { ledgerAccount: "external_payer", amount: 1 },
      ]),
    ).rejects.toThrow(LedgerInvariantError);
    expect(await testDb(h.deps).all("select id from ledger_entries")).toHaveLength(0);
    expect(
      await post(
        [
          { ledgerAccount: "available", amount: -1 },
          { ledgerAccount: "retained", amount: 1 },
        ],
        true,
      ),
    ).toBeString();
    expect(await ledgerBalance(h.deps, a.accountId)).toEqual({ available: -1, pending: 0, retained: 1 });
  });
});
