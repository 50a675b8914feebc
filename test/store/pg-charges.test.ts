// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * The PostgreSQL charges, refunds, payments and stats repositories (src/store/pg/charges.ts,
 * charges-side.ts, refunds.ts, payments.ts, payments-sort.ts, stats.ts): one script of calls gives
 * the same answers as on SQLite (the reference: rows, order, tie-breaks, "nothing written"
 * cases), and the conditional writes hold when two units race.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { PgStore } from "../../src/store/pg";
import type { PaymentListQuery } from "../../src/store/port/payments";
import type { Store } from "../../src/store/port";
import type { TransactionRow } from "../../src/store/rows";
import { sqliteDbOf } from "../../src/store/sqlite";
import { installPaymentAggregates } from "../../src/store/sqlite/stats-aggregates";

import { DAY, fixture, SORT_FIELDS, T0, tx } from "./pg-charges-fixture";
import {
  deferred,
  fileStores,
  type PgDatabase,
  pgDatabase,
  pgStoreOn,
  raw,
  settlesWithin,
  sqliteStore,
} from "./pg-twins";
import { ALIVE } from "../../src/domain/charges/model";

let db: PgDatabase;
let pg: PgStore;
fileStores([4], (d, [a]) => ([db, pg] = [d, a!]));

let seq = 0;
/** A merchant of its own per test (the database is shared by the file). */
const merchant = () => `acct_c${++seq}`;

/** A SQLite twin with its aggregate triggers (createDeps installs them at start). */
function liteStore(): Store {
  const store = sqliteStore();
  installPaymentAggregates(sqliteDbOf(store));
  return store;
}

/** Seeds `rows`, the account and four events of the first row (three legacy, two of them in the same millisecond) on `store`. */
async function seed(store: Store, a: string, rows: TransactionRow[]): Promise<void> {
  const sql = raw(store);
  await sql.run(
    "insert into accounts (id, name, payer_lock_enabled, default_expires_in, pix_fee_bps, pix_fee_fixed, settlement_delay_seconds, customer_velocity_max, account_velocity_max, velocity_window_seconds, created_at) values (?, ?, true, 900, 99, 10, 3600, 5, null, 7200, 0)",
    a,
    `Loja ${a}`,
  );
  await store.tx(async (u) => {
    for (const r of rows) await u.charges.insert(r);
  });
  const first = rows[0]!.id;
  for (const [i, body, at] of [
    [1, '{"data":{"status":"PAID"}}', 5],
    [2, '{"data":{"status":"A"}}', 7],
    [3, '{"data":{"status":"B"}}', 7],
    [4, '{"data":{"status":"C"}}', 3],
  ] as const)
    await sql.run(
      "insert into events (id, account_id, livemode, type, family, body, transaction_id, created_at) values (?, ?, false, 't', ?, ?, ?, ?)",
      `evt_${a}_${i}`,
      a,
      i === 4 ? "canonical" : "legacy",
      body,
      first,
      at,
    );
}

/** The read answers of the charges, payments and stats repositories over the fixture. */
async function reads(store: Store, a: string, rows: TransactionRow[]) {
  const r = store.read;
  const out: Record<string, unknown> = {};
  const [x, y] = [rows[1]!, rows[2]!];
  out.scoped = [
    await r.charges.byScopedId(a, x.livemode, x.id),
    await r.charges.byScopedId("other", x.livemode, x.id),
    await r.charges.byScopedId(a, !x.livemode, x.id),
  ];
  out.byId = [await r.charges.byId(y.id), await r.charges.byId("none")];
  out.byTxid = [await r.charges.byTxid(y.pixTxid!), await r.charges.byTxid("none")];
  const since = T0 - 2 * DAY;
  out.alive = [
    await r.charges.countAlive({ accountId: a, livemode: false, statuses: ALIVE, sinceMs: since }),
    await r.charges.countAlive({
      accountId: a,
      livemode: false,
      statuses: ALIVE,
      sinceMs: since,
      document: "12345678909",
    }),
    await r.charges.countAlive({ accountId: a, livemode: true, statuses: ALIVE, sinceMs: 0 }),
  ];
  const ids = (l: TransactionRow[]) => l.map((t) => t.id);
  const page1 = await r.charges.list({ accountId: a, livemode: false, limit: 4 });
  const page2 = await r.charges.list({ accountId: a, livemode: false, limit: 4, after: page1[3]! });
  out.list = [
    ids(page1),
    ids(page2),
    ids(await r.charges.list({ accountId: a, livemode: false, limit: 50, statuses: ["PAID", "EXPIRED"] })),
    ids(
      await r.charges.list({
        accountId: a,
        livemode: false,
        limit: 50,
        createdFromMs: T0 - DAY,
        createdToMs: T0 + 1_000,
      }),
    ),
    ids(await r.charges.list({ accountId: a, livemode: false, limit: 50, document: "12345678909" })),
  ];
  out.account = [
    await r.charges.accountForCreate(a),
    await r.charges.accountForCreate("none"),
    await r.charges.merchantName(a),
    await r.charges.merchantName("none"),
  ];
  out.legacy = await r.payments.recentLegacyEventBodies(rows[0]!.id, 20);
  const base: PaymentListQuery = {
    accountId: a,
    livemode: false,
    page: 1,
    limit: 100,
    sortBy: "createdAt",
    sortOrder: "desc",
  };
  const pages: unknown[] = [];
  for (const sortBy of SORT_FIELDS)
    for (const sortOrder of ["asc", "desc"] as const) {
      const p = await r.payments.page({ ...base, sortBy, sortOrder });
      pages.push([sortBy, sortOrder, p.total, ids(p.rows)]);
    }
  const queries: Partial<PaymentListQuery>[] = [
    { status: "PAID" },
    { status: "PAID", page: 2, limit: 2, sortBy: "amount", sortOrder: "asc" },
    { startMs: T0 - 2 * DAY, endMs: T0 },
    { search: `ch_${rows[3]!.id}` },
    { search: rows[5]!.pixTxid! },
    { search: rows[2]!.endToEndId! },
    { search: " 123.456.789-09 " },
    { search: "12345678909" },
    { search: "nobody" },
    { paymentMethod: "PIX" },
    { paymentMethod: "CRYPTO", sortBy: "cryptoAmount" },
    { paymentMethod: "BOLETO", status: "WAITING_PAYMENT" },
    { paymentMethod: "MULTIBANCO" },
    { page: 9, limit: 10 },
    { livemode: true, sortBy: "customerName", sortOrder: "asc" },
  ];
  for (const q of queries) {
    const p = await r.payments.page({ ...base, ...q });
    pages.push([q, p.total, ids(p.rows)]);
  }
  out.pages = pages;
  out.cells = [
    await r.stats.cells(a, false, "2026-03-01", "2026-03-31"),
    await r.stats.cells(a, false, "2026-03-08", "2026-03-09", "BRL"),
    await r.stats.cells(a, true, "2026-01-01", "2026-12-31"),
  ];
  out.buckets = [
    await r.stats.payTimeBuckets(a, false, {
      head: ["2026-03-06", "2026-03-31"],
      months: ["2026-04", "2026-03"],
      tail: ["2026-04-01", "2026-03-31"],
    }),
    await r.stats.payTimeBuckets(
      a,
      false,
      { head: ["2026-02-01", "2026-01-31"], months: ["2026-03", "2026-03"], tail: ["2026-04-01", "2026-03-31"] },
      "BRL",
    ),
    await r.stats.payTimeBuckets(a, false, {
      head: ["2026-03-09", "2026-03-09"],
      months: ["2026-04", "2026-03"],
      tail: ["2026-03-10", "2026-03-10"],
    }),
  ];
  out.expiry = [
    await r.charges.dueForExpiry(T0 + 60_000, 3),
    await r.charges.dueForExpiry(T0 + 600_000, 50),
    await r.charges.nextExpiryAfter(T0),
    await r.charges.nextExpiryAfter(T0 + 600_000),
  ];
  return out;
}

/** Writes of the charges, refunds and side-table methods, and what each answered. */
async function writes(store: Store, a: string, rows: TransactionRow[]) {
  const out: Record<string, unknown> = {};
  const [w, p] = [rows[0]!, rows[1]!];
  out.update = await store.tx((u) => u.charges.update(w.id, { customerName: "novo", updatedAt: T0 + 1 }));
  out.updateMissing = await store.tx((u) => u.charges.update("none", { updatedAt: 1 })).catch((e: Error) => e.message);
  out.transition = [
    await store.tx((u) => u.charges.transition(w.id, "PAID", { status: "EXPIRED" })),
    await store.tx((u) => u.charges.transition(w.id, "WAITING_PAYMENT", { status: "EXPIRED", updatedAt: T0 + 2 })),
    await store.tx(async (u) => (await u.charges.lockForChange(w.id))?.status),
    await store.tx((u) => u.charges.lockForChange("none")),
  ];
  const refund = (id: string, status: string, amount: number, createdAt: number) => ({
    id,
    accountId: a,
    livemode: p.livemode,
    transactionId: p.id,
    amount,
    currency: "BRL",
    status,
    reason: null,
    strategy: null,
    passFeeToTenant: false,
    destinationKey: null,
    pixOutFee: 0,
    method: "PIX",
    providerRefundId: null,
    failureReason: null,
    createdAt,
    updatedAt: createdAt,
    refundedAt: null,
  });
  out.refunds = await store.tx(async (u) => {
    const got: unknown[] = [];
    got.push(await u.refunds.reserveRefundable(p.id, 600, ["PAID"], T0 + 5));
    got.push(await u.refunds.reserveRefundable(p.id, 401, ["PAID"], T0 + 6));
    got.push(await u.refunds.reserveRefundable(p.id, 400, ["REFUNDED"], T0 + 7));
    got.push(await u.refunds.reserveRefundable(p.id, 400, ["REFUNDED", "PAID"], T0 + 8));
    for (const [id, st, amt, at] of [
      ["re_b", "PENDING", 600, 10],
      ["re_a", "REFUNDED", 100, 10],
      ["re_c", "REFUNDED", 300, 9],
    ] as const)
      await u.refunds.insert(refund(id, st, amt, at));
    got.push(await u.refunds.moveFrom("re_b", "REFUNDED", { status: "FAILED" }));
    got.push(await u.refunds.moveFrom("re_b", "PENDING", { status: "FAILED", failureReason: "x", updatedAt: 11 }));
    got.push(await u.refunds.moveFrom("none", "PENDING", { status: "FAILED" }));
    await u.refunds.releaseRefundable(p.id, 600, T0 + 9);
    got.push((await u.charges.byId(p.id))!.refundedAmount);
    await u.refunds.releaseRefundable(p.id, 5_000, T0 + 10);
    got.push((await u.charges.byId(p.id))!.refundedAmount);
    return got;
  });
  out.refundReads = [
    await store.read.refunds.byId("re_a"),
    await store.read.refunds.byIdScoped(a, p.livemode, "re_a"),
    await store.read.refunds.byIdScoped("other", p.livemode, "re_a"),
    (await store.read.refunds.listForTransaction(p.id)).map((r) => r.id),
    await store.read.refunds.confirmedTotal(p.id),
    await store.read.refunds.confirmedTotal("none"),
  ];
  const intent = (id: string, key: string, createdAt: number) => ({
    id,
    accountId: a,
    livemode: false,
    scope: "POST /v1/charges",
    key,
    requestHash: "h",
    txid: `t${id}`,
    transactionId: `x${id}`,
    connectionId: "ppc_1",
    row: "{}",
    view: "{}",
    createdAt,
  });
  out.intents = await store.tx(async (u) => {
    const got: unknown[] = [await u.charges.hasOpenIntents()];
    // Same millisecond: insertion order, which the time-ordered ids (rawId) follow.
    await u.charges.openIntent(intent(`i1${a}`, "k1", 50));
    await u.charges.openIntent(intent(`i2${a}`, "k2", 50));
    await u.charges.openIntent(intent(`i3${a}`, "k3", 70));
    got.push(
      await u.charges.hasOpenIntents(),
      await u.charges.intentOf({ accountId: a, livemode: false, scope: "POST /v1/charges", key: "k1" }),
    );
    got.push(await u.charges.intentOf({ accountId: a, livemode: true, scope: "POST /v1/charges", key: "k1" }));
    got.push(
      (await u.charges.staleIntents(60, 10)).map((i) => i.id),
      (await u.charges.staleIntents(100, 2)).map((i) => i.id),
    );
    got.push(await u.charges.dropIntent(`i1${a}`), await u.charges.dropIntent(`i1${a}`));
    return got;
  });
  out.keys = await store.tx(async (u) => {
    const before = await u.charges.signingKey();
    for (const [kid, at] of [
      ["kb", 20],
      ["ka", 25],
      ["k0", 30],
    ] as const)
      await u.charges.addSigningKey({
        kid: `${kid}${a}`,
        alg: "PS256",
        privateJwk: "{}",
        publicJwk: "{}",
        createdAt: at,
      });
    return [before === undefined, (await u.charges.signingKey())?.kid];
  });
  out.faults = await store.tx(async (u) => {
    const got: unknown[] = [await u.charges.faultsLeft(a), await u.charges.takeFault(a)];
    await u.charges.setFaults(a, "reject", 5, 1);
    await u.charges.setFaults(a, "unavailable", 2, 2);
    got.push(
      await u.charges.faultsLeft(a),
      await u.charges.takeFault(a),
      await u.charges.faultsLeft(a),
      await u.charges.takeFault(a),
      await u.charges.faultsLeft(a),
      await u.charges.takeFault(a),
    );
    await u.charges.setFaults(a, "reject", 0, 3);
    got.push(await u.charges.faultsLeft(a), await u.charges.takeFault(a));
    return got;
  });
  out.faultRows = await raw(store).all(
    "select account_id, mode, remaining from sandbox_provider_faults where account_id = ?",
    a,
  );
  return out;
}

describe("the PostgreSQL charges, refunds, payments and stats repositories", () => {
  // A database per twin test: the expiry reads and signing keys are not per merchant.
  const fresh: { db: PgDatabase; store: PgStore }[] = [];
  async function freshPg(): Promise<PgStore> {
    const db = await pgDatabase();
    const store = await pgStoreOn(db, 2);
    fresh.push({ db, store });
    return store;
  }
  afterAll(async () => {
    for (const f of fresh) {
      await f.store.close();
      await f.db.drop();
    }
  });

  test("answer every read exactly as SQLite does: rows, totals, order and tie-breaks", async () => {
    const a = merchant();
    const rows = fixture(a);
    const [lite, pg] = [liteStore(), await freshPg()];
    await seed(lite, a, rows);
    await seed(pg, a, rows);
    const want = await reads(lite, a, rows);
    const got = await reads(pg, a, rows);
    for (const k of Object.keys(want)) expect([k, got[k]]).toEqual([k, want[k]]);
  });

  test("answer every write exactly as SQLite does, including the writes that change nothing", async () => {
    const a = merchant();
    const rows = fixture(a);
    const [lite, pg] = [liteStore(), await freshPg()];
    await seed(lite, a, rows);
    await seed(pg, a, rows);
    const want = await writes(lite, a, rows);
    const got = await writes(pg, a, rows);
    for (const k of Object.keys(want)) expect([k, got[k]]).toEqual([k, want[k]]);
    // And the aggregates the writes moved read the same.
    expect(await reads(pg, a, rows)).toEqual(await reads(lite, a, rows));
  });
});

describe("two units racing on PostgreSQL", () => {
  test("take the last sandbox fault once between them", async () => {
    const a = merchant();
    await pg.tx((u) => u.charges.setFaults(a, "reject", 1, 1));
    const hold = deferred();
    const reached = deferred();
    const first = pg.tx(async (u) => {
      const m = await u.charges.takeFault(a);
      reached.resolve();
      await hold.promise;
      return m;
    });
    await reached.promise; // the first unit holds its locks now
    const second = pg.tx((u) => u.charges.takeFault(a));
    expect(await settlesWithin(second, 200)).toBe(false); // it waits for the first unit's row lock
    hold.resolve();
    expect([await first, await second]).toEqual(["reject", null]);
    expect(await pg.read.charges.faultsLeft(a)).toBe(0);
    expect(await raw(pg).all("select * from sandbox_provider_faults where account_id = ?", a)).toEqual([]);
  });

  test("reserve at most the transaction's amount however many refunds race", async () => {
    const a = merchant();
    const t = tx(a, `r${a}`, { status: "PAID", paidWith: "PIX", paidAt: T0 + 1_000, amount: 1_000 });
    await pg.tx((u) => u.charges.insert(t));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => pg.tx((u) => u.refunds.reserveRefundable(t.id, 300, ["PAID"], T0 + i))),
    );
    expect(results.filter(Boolean)).toHaveLength(3);
    expect((await pg.read.charges.byId(t.id))!.refundedAmount).toBe(900);
  });

  test("apply one status transition from the same status, the other finding it moved", async () => {
    const a = merchant();
    const t = tx(a, `s${a}`);
    await pg.tx((u) => u.charges.insert(t));
    const hold = deferred();
    const reached = deferred();
    const first = pg.tx(async (u) => {
      const row = await u.charges.transition(t.id, "WAITING_PAYMENT", {
        status: "PAID",
        paidAt: T0 + 1,
        paidWith: "PIX",
      });
      reached.resolve();
      await hold.promise;
      return row?.status;
    });
    await reached.promise; // the first unit holds its locks now
    const second = pg.tx(
      async (u) => (await u.charges.transition(t.id, "WAITING_PAYMENT", { status: "EXPIRED" }))?.status,
    );
    expect(await settlesWithin(second, 200)).toBe(false);
    hold.resolve();
    expect([await first, await second]).toEqual(["PAID", undefined]);
  });

  test("count each other's charges in the velocity guard of one account", async () => {
    const a = merchant();
    const hold = deferred();
    const reached = deferred();
    const first = pg.tx(async (u) => {
      const n = await u.charges.countAlive({ accountId: a, livemode: false, statuses: ALIVE, sinceMs: 0 });
      await u.charges.insert(tx(a, `v1${a}`));
      reached.resolve();
      await hold.promise;
      return n;
    });
    await reached.promise; // the first unit holds its locks now
    const second = pg.tx(async (u) => {
      const n = await u.charges.countAlive({ accountId: a, livemode: false, statuses: ALIVE, sinceMs: 0 });
      await u.charges.insert(tx(a, `v2${a}`));
      return n;
    });
    expect(await settlesWithin(second, 200)).toBe(false);
    hold.resolve();
    expect([await first, await second]).toEqual([0, 1]);
    // Another account's guard does not wait on this one's.
    const other = merchant();
    const hold2 = deferred();
    const reached2 = deferred();
    const held = pg.tx(async (u) => {
      await u.charges.countAlive({ accountId: a, livemode: false, statuses: ALIVE, sinceMs: 0 });
      reached2.resolve();
      await hold2.promise;
    });
    await reached2.promise; // the first unit holds its locks now
    expect(
      await settlesWithin(
        pg.tx((u) => u.charges.countAlive({ accountId: other, livemode: false, statuses: ALIVE, sinceMs: 0 })),
        5_000,
      ),
    ).toBe(true);
    hold2.resolve();
    await held;
  });

  test("both end up signing with the oldest key when two add one on first use", async () => {
    const [k1, k2] = ["kid_new", "kid_old"];
    await Promise.all([
      pg.tx((u) => u.charges.addSigningKey({ kid: k1, alg: "PS256", privateJwk: "{}", publicJwk: "{}", createdAt: 2 })),
      pg.tx((u) => u.charges.addSigningKey({ kid: k2, alg: "PS256", privateJwk: "{}", publicJwk: "{}", createdAt: 1 })),
    ]);
    expect((await pg.read.charges.signingKey())?.kid).toBe(k2);
  });
});
