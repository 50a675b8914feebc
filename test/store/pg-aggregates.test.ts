// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * The payment aggregates on PostgreSQL (db/migrations-pg/0004_payment_aggregate_triggers.sql,
 * read by src/store/pg/stats.ts): after a random mix of writes from several sessions at once,
 * the shard rows summed equal a recomputation from `transactions` done here, independently (the
 * oracle); writers of one merchant's day never wait on each other; the migration rebuilds the
 * aggregates of rows stored before it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PgStore } from "../../src/store/pg";
import { embeddedPgMigrations, runPgMigrations } from "../../src/store/pg/migrations";
import type { StatsCell } from "../../src/store/port/stats";
import type { TransactionRow } from "../../src/store/rows";
import { PG_START_TIMEOUT } from "../support/pg";
import { deferred, pgDatabase, pgStoreOn, settlesWithin, shardedInstances, type PgDatabase } from "./pg-twins";

const DAY = 86_400_000;
/** 2026-03-10T03:00:00Z: midnight in São Paulo (UTC-3). */
const MIDNIGHT_SP = 1_773_111_600_000;

let seq = 0;
const merchant = () => `acct_g${++seq}`;

/** A small deterministic PRNG (mulberry32), so a failing mix can be replayed from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function row(accountId: string, id: string, over: Partial<TransactionRow>): TransactionRow {
  return {
    id,
    accountId,
    livemode: false,
    amount: 1_000,
    currency: "BRL",
    status: "WAITING_PAYMENT",
    paymentMethods: '["PIX"]',
    paidWith: null,
    origin: "charges",
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
    createdAt: MIDNIGHT_SP,
    updatedAt: MIDNIGHT_SP,
    ...over,
  };
}

// -- the oracle: the cells recomputed from the rows, in plain TypeScript ------------------------

/** São Paulo day (UTC-3) of epoch ms `ms`, from whole seconds as SQLite's `created_at / 1000` takes them. */
function spDay(ms: number): string {
  return new Date((Math.trunc(ms / 1000) - 10_800) * 1000).toISOString().slice(0, 10);
}
/** Bucket of a time-to-pay: floor(log_1.05(1 + seconds)), seconds clamped at 0. */
function bucketOf(createdAt: number, paidAt: number): number {
  return Math.floor(Math.log(1 + Math.max(0, (paidAt - createdAt) / 1000)) / Math.log(1.05));
}

type Cells = Record<string, number[]>;
function add(cells: Cells, key: unknown[], values: number[]) {
  const k = JSON.stringify(key);
  const cur = (cells[k] ??= values.map(() => 0));
  values.forEach((v, i) => {
    cur[i]! += v;
  });
}
/** Only cells that hold something (a cell emptied by later changes reads as zeros on both sides). */
const nonZero = (cells: Cells): Cells =>
  Object.fromEntries(Object.entries(cells).filter(([, v]) => v.some((x) => x !== 0)));

function oracle(rows: Record<string, any>[]): { daily: Cells; hist: Cells; monthly: Cells } {
  const daily: Cells = {};
  const hist: Cells = {};
  const monthly: Cells = {};
  for (const r of rows) {
    const [createdAt, paidAt] = [Number(r.created_at), r.paid_at === null ? null : Number(r.paid_at)];
    const day = spDay(createdAt);
    add(
      daily,
      [r.account_id, r.livemode, day, r.currency, r.paid_with ?? "", r.status, paidAt === null ? 0 : 1],
      [1, Number(r.amount), Number(r.refunded_amount)],
    );
    if (paidAt === null) continue;
    const b = bucketOf(createdAt, paidAt);
    add(hist, [r.account_id, r.livemode, day, r.currency, b], [1]);
    add(monthly, [r.account_id, r.livemode, day.slice(0, 7), r.currency, b], [1]);
  }
  return { daily: nonZero(daily), hist: nonZero(hist), monthly: nonZero(monthly) };
}

/** The aggregate tables as stored: shard rows summed per cell. */
async function summed(store: PgStore): Promise<{ daily: Cells; hist: Cells; monthly: Cells }> {
  const daily: Cells = {};
  for (const r of await store.sql`select account_id, livemode, day, currency, method, status, paid, sum(count) as c, sum(amount) as a, sum(refunded) as f
      from payment_daily_stats group by 1, 2, 3, 4, 5, 6, 7`)
    add(
      daily,
      [r.account_id, r.livemode, r.day, r.currency, r.method, r.status, Number(r.paid)],
      [Number(r.c), Number(r.a), Number(r.f)],
    );
  const hist: Cells = {};
  for (const r of await store.sql`select account_id, livemode, day, currency, bucket, sum(count) as c from payment_pay_time_hist group by 1, 2, 3, 4, 5`)
    add(hist, [r.account_id, r.livemode, r.day, r.currency, Number(r.bucket)], [Number(r.c)]);
  const monthly: Cells = {};
  for (const r of await store.sql`select account_id, livemode, month, currency, bucket, sum(count) as c from payment_pay_time_hist_monthly group by 1, 2, 3, 4, 5`)
    add(monthly, [r.account_id, r.livemode, r.month, r.currency, Number(r.bucket)], [Number(r.c)]);
  return { daily: nonZero(daily), hist: nonZero(hist), monthly: nonZero(monthly) };
}

// -- the tests --------------------------------------------------------------------------------

describe("the payment aggregates on PostgreSQL", () => {
  let db: PgDatabase;
  let stores: PgStore[];
  let shards: number[];
  beforeAll(async () => {
    db = await pgDatabase();
    ({ stores, shards } = await shardedInstances(db, 4));
  }, PG_START_TIMEOUT);
  afterAll(async () => {
    for (const s of stores ?? []) await s.close();
    await db?.drop();
  });

  test("equal a recomputation from transactions after a random mix of writes from several sessions at once", async () => {
    const seed = Date.now() % 100_000;
    const accounts = [merchant(), merchant()];
    const ids: string[] = [];
    let next = 0;
    const newId = () => {
      const id = `0197${String(++next).padStart(28, "0")}`;
      ids.push(id);
      return id;
    };
    /** One session's script: 70 random writes, each its own unit (some of two writes). */
    async function script(store: PgStore, n: number): Promise<void> {
      const rnd = prng(seed * 7 + n);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
      const someId = () => (ids.length ? pick(ids) : "none");
      // Around São Paulo midnights, days and months apart (2026-02-28 is a month's last day).
      const when = () =>
        pick([MIDNIGHT_SP, MIDNIGHT_SP - 10 * DAY, MIDNIGHT_SP - 10 * DAY - 1]) +
        pick([-1, 0, 1, -999, 1_000, 3_600_000]) * pick([1, 1, 7]);
      for (let i = 0; i < 70; i++) {
        const op = rnd();
        const id = someId();
        if (op < 0.3) {
          const createdAt = when();
          const paid = rnd() < 0.4;
          await store.tx((u) =>
            u.charges.insert(
              row(pick(accounts), newId(), {
                livemode: rnd() < 0.3,
                currency: pick(["BRL", "BRL", "EUR"]),
                amount: 100 + Math.floor(rnd() * 5_000),
                status: paid ? "PAID" : pick(["WAITING_PAYMENT", "PENDING", "EXPIRED"]),
                paidWith: paid ? pick(["PIX", "CREDIT_CARD"]) : null,
                paidAt: paid ? createdAt + Math.floor(rnd() * 4_000_000) - 500 : null,
                createdAt,
              }),
            ),
          );
        } else if (op < 0.5) {
          // A payment: waiting -> paid, with a time to pay.
          await store.tx(async (u) => {
            const t = await u.charges.lockForChange(id);
            if (!t || !["WAITING_PAYMENT", "PENDING"].includes(t.status)) return;
            await u.charges.transition(id, t.status, {
              status: "PAID",
              paidWith: pick(["PIX", "CREDIT_CARD"]),
              paidAt: t.createdAt + Math.floor(rnd() * 90_000_000),
              updatedAt: 1,
            });
          });
        } else if (op < 0.62) {
          // A refund reserved, sometimes released again in the same unit, sometimes completing the refund.
          await store.tx(async (u) => {
            const ok = await u.refunds.reserveRefundable(id, 1 + Math.floor(rnd() * 900), ["PAID", "REFUNDED"], 2);
            if (ok && rnd() < 0.3) await u.refunds.releaseRefundable(id, 300, 3);
            if (ok && rnd() < 0.3) await u.charges.transition(id, "PAID", { status: "REFUNDED", updatedAt: 4 });
          });
        } else if (op < 0.72) {
          await store.tx((u) =>
            u.charges.transition(id, pick(["WAITING_PAYMENT", "PENDING"]), {
              status: pick(["EXPIRED", "CANCELLED"]),
              updatedAt: 5,
            }),
          );
        } else if (op < 0.8) {
          // Columns that move a row to another cell: its day, amount, currency, mode, account.
          const patch = pick<Partial<TransactionRow>>([
            { createdAt: when() },
            { amount: 777 },
            { currency: "EUR" },
            { livemode: true },
            { accountId: pick(accounts) },
            { paidAt: null, paidWith: null },
          ]);
          await store.tx(async (u) => {
            if (await u.charges.lockForChange(id)) await u.charges.update(id, patch);
          });
        } else if (op < 0.88) {
          // A column no cell counts: the update trigger's WHEN leaves the aggregates alone.
          await store.tx(async (u) => {
            if (await u.charges.lockForChange(id)) await u.charges.update(id, { customerName: `n${i}`, updatedAt: 6 });
          });
        } else {
          await store.sql`delete from transactions where id = ${id}`;
        }
      }
    }
    await Promise.all(stores.map((s, n) => script(s, n)));

    const rows = await stores[0]!.sql`select * from transactions`;
    expect(rows.length).toBeGreaterThan(20);
    const want = oracle(rows);
    const got = await summed(stores[0]!);
    expect({ seed, ...got }).toEqual({ seed, ...want });
    expect(Object.keys(want.hist).length).toBeGreaterThan(3);
    // Every session wrote its own shard rows, and only those.
    const used = (await stores[0]!.sql`select distinct shard from payment_daily_stats order by shard`).map(
      (r: { shard: string }) => Number(r.shard),
    );
    expect(used.length).toBeGreaterThan(1);
    expect(used.every((s: number) => shards.includes(s))).toBe(true);
    // The repository reads the same cells (one merchant's, summed over the shards).
    const cells = (await stores[1]!.read.stats.cells(accounts[0]!, false, "2026-01-01", "2026-12-31")).filter(
      (c) => c.count !== 0 || c.refunded !== 0 || c.amount !== 0,
    );
    const fromOracle = Object.entries(want.daily)
      .map(([k, v]) => [JSON.parse(k), v] as [[string, boolean, string, string, string, string, number], number[]])
      .filter(([k]) => k[0] === accounts[0] && k[1] === false)
      .map(([k, v]) => ({
        day: k[2],
        currency: k[3],
        method: k[4],
        status: k[5],
        paid: k[6],
        count: v[0],
        amount: v[1],
        refunded: v[2],
      }));
    const byKey = (c: StatsCell) => JSON.stringify([c.day, c.currency, c.method, c.status, c.paid]);
    expect(cells.map(byKey)).toEqual([...cells.map(byKey)].sort());
    expect([...cells].sort((a, b) => byKey(a).localeCompare(byKey(b)))).toEqual(
      fromOracle.sort((a, b) => byKey(a).localeCompare(byKey(b))),
    );
  }, 60_000);

  test("let two units writing the same merchant's same day proceed without waiting on each other", async () => {
    const [a, b] = [stores[0]!, stores[1]!];
    const acct = merchant();
    const hold = deferred();
    const reached = deferred();
    const first = a.tx(async (u) => {
      await u.charges.insert(row(acct, `w1${acct}`, {}));
      reached.resolve();
      await hold.promise; // its aggregate rows stay written (and row-locked) until it commits
    });
    await reached.promise; // the first unit holds its locks now
    const second = b.tx((u) => u.charges.insert(row(acct, `w2${acct}`, {})));
    expect(await settlesWithin(second, 5_000)).toBe(true);
    // The same for a status change of the first row's cell, made while the first unit is still open.
    const third = b.tx((u) =>
      u.charges.transition(`w2${acct}`, "WAITING_PAYMENT", {
        status: "PAID",
        paidAt: MIDNIGHT_SP + 5_000,
        paidWith: "PIX",
      }),
    );
    expect(await settlesWithin(third, 5_000)).toBe(true);
    hold.resolve();
    await first;
    const cells = await a.read.stats.cells(acct, false, "2026-03-10", "2026-03-10");
    expect(cells.filter((c) => c.count !== 0).map((c) => [c.status, c.method, c.paid, c.count, c.amount])).toEqual([
      ["WAITING_PAYMENT", "", 0, 1, 1_000],
      ["PAID", "PIX", 1, 1, 1_000],
    ]);
  });

  test("create a shard row with a negative count when a session subtracts what another added, and the sums stay exact", async () => {
    const [a, b] = [stores[2]!, stores[3]!];
    const acct = merchant();
    await a.tx((u) => u.charges.insert(row(acct, `n1${acct}`, {})));
    await b.tx((u) => u.charges.transition(`n1${acct}`, "WAITING_PAYMENT", { status: "EXPIRED" }));
    const rows =
      await a.sql`select status, shard, count from payment_daily_stats where account_id = ${acct} order by status, shard`;
    expect(rows.map((r: Record<string, string>) => [r.status, Number(r.shard), Number(r.count)])).toEqual(
      [
        ["EXPIRED", shards[3], 1],
        ["WAITING_PAYMENT", shards[2], 1],
        ["WAITING_PAYMENT", shards[3], -1],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0])) || Number(x[1]) - Number(y[1])),
    );
    const cells = await a.read.stats.cells(acct, false, "2026-03-10", "2026-03-10");
    expect(cells.map((c) => [c.status, c.count, c.amount])).toEqual([
      ["EXPIRED", 1, 1_000],
      ["WAITING_PAYMENT", 0, 0],
    ]);
  });
});

describe("migrating a database that already holds transactions", () => {
  let db: PgDatabase;
  beforeAll(async () => {
    db = await pgDatabase({ empty: true });
  }, PG_START_TIMEOUT);
  afterAll(() => db?.drop());

  test("rebuilds the aggregates from the rows stored before the triggers existed", async () => {
    const all = embeddedPgMigrations();
    const mine = all.findIndex((m) => m.tag === "0004_payment_aggregate_triggers");
    expect(mine).toBeGreaterThan(0);
    // The database as it was before this migration: the earlier ones applied and recorded.
    await db.sql.begin(async (t) => {
      await t.unsafe("create schema drizzle");
      await t.unsafe(
        "create table drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)",
      );
      for (const m of all.slice(0, mine)) {
        for (const s of m.statements) if (s.trim()) await t.unsafe(s);
        await t`insert into drizzle.__drizzle_migrations (hash, created_at) values (${m.hash}, ${m.folderMillis})`;
      }
    });
    const store = await pgStoreOn(db, 1);
    try {
      const acct = merchant();
      await store.tx(async (u) => {
        await u.charges.insert(
          row(acct, "b1", {
            status: "PAID",
            paidWith: "PIX",
            paidAt: MIDNIGHT_SP + 61_000,
            createdAt: MIDNIGHT_SP - 1,
          }),
        );
        await u.charges.insert(
          row(acct, "b2", { status: "PAID", paidWith: "PIX", paidAt: MIDNIGHT_SP + 9_000, refundedAmount: 300 }),
        );
        await u.charges.insert(row(acct, "b3", { createdAt: MIDNIGHT_SP + 5 }));
      });
      expect(await summed(store)).toEqual({ daily: {}, hist: {}, monthly: {} });
      expect(await runPgMigrations(store.sql)).toEqual(all.slice(mine).map((m) => m.tag));
      const rows = await store.sql`select * from transactions`;
      expect(await summed(store)).toEqual(oracle(rows));
      // And from now on the triggers keep them.
      await store.tx((u) =>
        u.charges.transition("b3", "WAITING_PAYMENT", { status: "PAID", paidWith: "PIX", paidAt: MIDNIGHT_SP + 100 }),
      );
      expect(await summed(store)).toEqual(oracle(await store.sql`select * from transactions`));
    } finally {
      await store.close();
    }
  });
});
