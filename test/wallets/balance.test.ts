/** GET /v1/wallets/balance and GET /v1/wallets: exact shapes, amounts from the ledger, test/live separation, auth. */
import { beforeEach, describe, expect, test } from "bun:test";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { expectLedgerBalanced } from "../support/ledger";
import { creditChargePayment, debitRefund, holdMed } from "../../src/domain/ledger";

const FULL_KEYS = [
  "available",
  "balances",
  "currency",
  "next_release_amount",
  "next_release_at",
  "pending",
  "primary",
  "retained",
  "total",
];
const FLAT_KEYS = ["available", "currency", "next_release_amount", "next_release_at", "pending"];
const ITEM_KEYS = ["available", "currency", "pending", "total"];
const WALLET_KEYS = ["balance", "currency", "pendingBalance", "walletType"];

let h: Harness;
let a: SeededAccount;

beforeEach(async () => {
  h = createHarness();
  a = await h.seedAccount();
});

function credit(
  amount: number,
  transactionId: string,
  opts: { livemode?: boolean; currency?: string; fee?: number } = {},
) {
  return h.deps.store.tx((uow) =>
    creditChargePayment(h.deps, uow, {
      accountId: a.accountId,
      livemode: opts.livemode ?? false,
      currency: opts.currency ?? "BRL",
      amount,
      fee: opts.fee ?? 0,
      transactionId,
    }),
  );
}

describe("GET /v1/wallets/balance (full shape)", () => {
  test("answers zeros in BRL for an account without activity", async () => {
    const res = await h.call("GET", "/v1/wallets/balance", { key: a.testKey });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(FULL_KEYS);
    expect(res.body).toEqual({
      available: 0,
      pending: 0,
      total: 0,
      retained: 0,
      currency: "BRL",
      next_release_at: null,
      next_release_amount: null,
      balances: [{ currency: "BRL", available: 0, pending: 0, total: 0 }],
      primary: { currency: "BRL", available: 0, pending: 0, total: 0 },
    });
  });

  test("shows pending with the next release, then available once the clock passes the settlement delay", async () => {
    await credit(10_000, "tx_1", { fee: 200 });
    let res = await h.call("GET", "/v1/wallets/balance", { key: a.testKey });
    expect(res.body).toMatchObject({
      available: 0,
      pending: 9_800,
      total: 9_800,
      retained: 0,
      next_release_at: "2026-11-21T12:00:00.000Z",
      next_release_amount: 9_800,
    });
    expect(res.body.primary).toEqual({ currency: "BRL", available: 0, pending: 9_800, total: 9_800 });

    h.clock.advance(86400);
    await h.deps.jobs.drain();
    res = await h.call("GET", "/v1/wallets/balance", { key: a.testKey });
    expect(res.body).toMatchObject({
      available: 9_800,
      pending: 0,
      total: 9_800,
      next_release_at: null,
      next_release_amount: null,
    });
    expect(res.body.balances).toEqual([{ currency: "BRL", available: 9_800, pending: 0, total: 9_800 }]);
    await expectLedgerBalanced(h.deps);
  });

  test("shows a MED hold as retained with a negative available", async () => {
    await credit(1_000, "tx_1");
    h.clock.advance(86400);
    await h.deps.jobs.drain();
    await h.deps.store.tx((uow) =>
      holdMed(h.deps, uow, {
        accountId: a.accountId,
        livemode: false,
        currency: "BRL",
        amount: 1_500,
        medCaseId: "med_1",
      }),
    );
    const res = await h.call("GET", "/v1/wallets/balance", { key: a.testKey });
    expect(res.body).toMatchObject({ available: -500, pending: 0, total: -500, retained: 1_500 });
    await expectLedgerBalanced(h.deps);
  });

  test("lists other currencies after the primary one", async () => {
    await credit(300, "tx_usd", { currency: "USD" });
    await credit(100, "tx_brl");
    const res = await h.call("GET", "/v1/wallets/balance", { key: a.testKey });
    expect(res.body.balances).toEqual([
      { currency: "BRL", available: 0, pending: 100, total: 100 },
      { currency: "USD", available: 0, pending: 300, total: 300 },
    ]);
    for (const item of res.body.balances) expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
    expect(res.body.currency).toBe("BRL");
    expect(res.body.pending).toBe(100);
  });
});

describe("GET /v1/wallets/balance?currency= (flat shape)", () => {
  test("answers only the single-currency fields", async () => {
    const { releaseAt } = await credit(2_500, "tx_1");
    const res = await h.call("GET", "/v1/wallets/balance?currency=BRL", { key: a.testKey });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(FLAT_KEYS);
    expect(res.body).toEqual({
      available: 0,
      pending: 2_500,
      currency: "BRL",
      next_release_at: new Date(releaseAt).toISOString(),
      next_release_amount: 2_500,
    });
  });

  test("answers zeros for a valid currency without activity", async () => {
    await credit(2_500, "tx_1");
    const res = await h.call("GET", "/v1/wallets/balance?currency=EUR", { key: a.testKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      available: 0,
      pending: 0,
      currency: "EUR",
      next_release_at: null,
      next_release_amount: null,
    });
  });

  test("accepts a lower-case code and answers it upper-case", async () => {
    const res = await h.call("GET", "/v1/wallets/balance?currency=brl", { key: a.testKey });
    expect(res.status).toBe(200);
    expect(res.body.currency).toBe("BRL");
  });

  test("answers the flat shape for a non-ISO currency the account holds, such as USDT from a payment", async () => {
    await credit(700, "tx_usdt", { currency: "USDT" });
    const full = await h.call("GET", "/v1/wallets/balance", { key: a.testKey });
    expect(full.body.balances.map((b: { currency: string }) => b.currency)).toEqual(["BRL", "USDT"]);
    const res = await h.call("GET", "/v1/wallets/balance?currency=usdt", { key: a.testKey });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(FLAT_KEYS);
    expect(res.body).toMatchObject({ available: 0, pending: 700, currency: "USDT" });
    const other = await h.call("GET", "/v1/wallets/balance?currency=USDC", { key: a.testKey });
    expect(other.status).toBe(400);
  });

  test.each(["/v1/wallets/balance?curency=USD", "/v1/wallets/balance?currency=USD&page=2", "/v1/wallets?currency=BRL"])(
    "rejects an unknown query parameter instead of ignoring it: %p -> 400",
    async (path) => {
      const res = await h.call("GET", path, { key: a.testKey });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_request" });
    },
  );

  test.each(["XYZ", "BR", "BRLL", "12A", "", "B%20L", "BRL&currency=USD"])(
    "rejects the malformed or unknown currency %p with 400",
    async (code) => {
      const res = await h.call("GET", `/v1/wallets/balance?currency=${code}`, { key: a.testKey });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        type: "invalid_request_error",
        code: "invalid_currency",
        param: "currency",
      });
    },
  );
});

describe("GET /v1/wallets", () => {
  test("answers one OPERATIONAL BRL wallet with zeros for a new account", async () => {
    const res = await h.call("GET", "/v1/wallets", { key: a.testKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ currency: "BRL", walletType: "OPERATIONAL", balance: 0, pendingBalance: 0 }]);
  });

  test("uses the same amounts as available and pending, per currency", async () => {
    await credit(4_000, "tx_1");
    h.clock.advance(86400);
    await h.deps.jobs.drain();
    await credit(1_000, "tx_2");
    await credit(700, "tx_3", { currency: "USD" });
    await h.deps.store.tx((uow) =>
      debitRefund(h.deps, uow, {
        accountId: a.accountId,
        livemode: false,
        currency: "BRL",
        amount: 500,
        refundId: "re_1",
        transactionId: "tx_1",
      }),
    );
    const res = await h.call("GET", "/v1/wallets", { key: a.testKey });
    expect(res.status).toBe(200);
    for (const w of res.body) expect(Object.keys(w).sort()).toEqual(WALLET_KEYS);
    expect(res.body).toEqual([
      { currency: "BRL", walletType: "OPERATIONAL", balance: 3_500, pendingBalance: 1_000 },
      { currency: "USD", walletType: "OPERATIONAL", balance: 0, pendingBalance: 700 },
    ]);
    await expectLedgerBalanced(h.deps);
  });
});

describe("test and live separation", () => {
  test("a live credit shows only to the live key and a test credit only to the test key", async () => {
    await credit(9_000, "tx_live", { livemode: true });
    await credit(1_000, "tx_test");
    const live = await h.call("GET", "/v1/wallets/balance?currency=BRL", { key: a.liveKey });
    const test_ = await h.call("GET", "/v1/wallets/balance?currency=BRL", { key: a.testKey });
    expect(live.body.pending).toBe(9_000);
    expect(test_.body.pending).toBe(1_000);
    const wallets = await h.call("GET", "/v1/wallets", { key: a.liveKey });
    expect(wallets.body).toEqual([{ currency: "BRL", walletType: "OPERATIONAL", balance: 0, pendingBalance: 9_000 }]);
  });

  test("another account's balances never show", async () => {
    const other = await h.seedAccount();
    await credit(5_000, "tx_1");
    const res = await h.call("GET", "/v1/wallets/balance", { key: other.testKey });
    expect(res.body.pending).toBe(0);
    expect(res.body.available).toBe(0);
  });
});

describe("authentication", () => {
  test.each([
    ["GET", "/v1/wallets/balance"],
    ["GET", "/v1/wallets/balance?currency=BRL"],
    ["GET", "/v1/wallets/balance?currency=XYZ"],
    ["GET", "/v1/wallets"],
  ])("%s %s without a key answers 401, never 404", async (method, path) => {
    const res = await h.call(method, path);
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ type: "authentication_error", code: "unauthorized" });
  });

  test("an unknown or malformed key answers 401", async () => {
    for (const key of [`ak_test_${"x".repeat(32)}`, "nope", `${a.testKey}x`]) {
      const res = await h.call("GET", "/v1/wallets/balance", { key });
      expect(res.status).toBe(401);
    }
  });
});
