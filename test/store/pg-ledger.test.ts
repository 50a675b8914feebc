// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * The PostgreSQL ledger repository (src/store/pg/ledger.ts): the same results as the SQLite twin,
 * balances summed over write shards, credits of one merchant that never wait on each other,
 * debits serialised so a balance cannot go negative, and balances equal to the journal after a
 * concurrent mix.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LedgerInvariantError, postEntry } from "../../src/domain/ledger/post";
import { verifyLedger } from "../../src/domain/ledger/verify";
import type { PgStore } from "../../src/store/pg";
import type { LedgerPosting } from "../../src/store/port/ledger";
import type { Store } from "../../src/store/port";
import { PG_START_TIMEOUT } from "../support/pg";
import { deferred, fileStores, type PgDatabase, raw, settlesWithin, shardedInstances, sqliteStore } from "./pg-twins";

let db: PgDatabase;
let pg: PgStore;
fileStores([4], (d, [a]) => ([db, pg] = [d, a!]));

let seq = 0;
/** A merchant of its own per test (the database is shared by the file). */
const merchant = () => `acct_l${++seq}`;

type Line = { ledgerAccount: string; amount: number; trancheId?: string };
function posting(accountId: string, n: number, lines: Line[], now = 1_000 + n): LedgerPosting {
  return {
    id: `je_${accountId}_${n}`,
    accountId,
    livemode: false,
    currency: "BRL",
    kind: "k",
    causeKind: "c",
    causeId: `c${n}`,
    idempotencyKey: `${accountId}:${n}`,
    meta: n % 2 ? null : `{"n":${n}}`,
    lines: lines.map((l) => ({ trancheId: null, mayGoNegative: l.ledgerAccount === "external_payer", ...l })),
    now,
  };
}

/** What one script of ledger calls returns on `store` (everything the port answers). */
async function ledgerScript(store: Store, acct: string) {
  const out: Record<string, unknown> = {};
  out.post1 = await store.tx(async (u) => {
    await u.ledger.insertTranche({
      id: `tr_${acct}_1`,
      accountId: acct,
      livemode: false,
      currency: "BRL",
      transactionId: "tx1",
      amount: 900,
      remaining: 900,
      releaseAt: 5_000,
      createdAt: 1_000,
    });
    await u.ledger.insertTranche({
      id: `tr_${acct}_2`,
      accountId: acct,
      livemode: false,
      currency: "BRL",
      transactionId: "tx2",
      amount: 450,
      remaining: 450,
      releaseAt: 5_000,
      createdAt: 1_000,
    });
    await u.ledger.insertTranche({
      id: `tr_${acct}_3`,
      accountId: acct,
      livemode: false,
      currency: "BRL",
      transactionId: "tx3",
      amount: 50,
      remaining: 50,
      releaseAt: 7_000,
      createdAt: 1_000,
    });
    return u.ledger.post(
      posting(acct, 1, [
        { ledgerAccount: "external_payer", amount: -1_500 },
        { ledgerAccount: "pending", amount: 900, trancheId: `tr_${acct}_1` },
        { ledgerAccount: "pending", amount: 450, trancheId: `tr_${acct}_2` },
        { ledgerAccount: "pending", amount: 50, trancheId: `tr_${acct}_3` },
        { ledgerAccount: "platform_fee_revenue", amount: 100 },
      ]),
    );
  });
  // Two lines of one ledger account in one entry: each answers its own running balance.
  out.post2 = await store.tx((u) =>
    u.ledger.post(
      posting(acct, 2, [
        { ledgerAccount: "pending", amount: -900, trancheId: `tr_${acct}_1` },
        { ledgerAccount: "available", amount: 900 },
        { ledgerAccount: "pending", amount: -450, trancheId: `tr_${acct}_2` },
        { ledgerAccount: "available", amount: 450 },
      ]),
    ),
  );
  out.post3 = await store.tx((u) =>
    u.ledger.post(
      posting(acct, 3, [
        { ledgerAccount: "available", amount: -2_000 },
        { ledgerAccount: "retained", amount: 2_000 },
      ]),
    ),
  );
  out.post4 = await store.tx((u) =>
    u.ledger.post({
      ...posting(acct, 4, [
        { ledgerAccount: "external_payer", amount: -70 },
        { ledgerAccount: "available", amount: 70 },
      ]),
      currency: "USD",
    }),
  );
  await store.tx(async (u) => {
    await u.ledger.setTrancheRemaining(`tr_${acct}_1`, 0);
    await u.ledger.markTrancheReleased(`tr_${acct}_1`, 6_000);
    await u.ledger.setTrancheRemaining(`tr_${acct}_1`, 77); // no-op once released
    await u.ledger.setTrancheRemaining(`tr_${acct}_2`, 0);
  });
  const r = store.read.ledger;
  out.entry = await r.entryByKey(`${acct}:2`);
  out.noEntry = await r.entryByKey(`${acct}:nope`);
  out.lines = (await r.entryLines(`je_${acct}_2`)).map(({ id: _id, ...l }) => l);
  out.lineIdsAscending = (await r.entryLines(`je_${acct}_1`))
    .map((l) => l.id)
    .every((id, i, a) => i === 0 || id > a[i - 1]!);
  out.balances = {
    available: await r.accountBalance(acct, false, "BRL", "available"),
    pending: await r.accountBalance(acct, false, "BRL", "pending"),
    never: await r.accountBalance(acct, false, "BRL", "retained_nope"),
    inUnit: await store.tx((u) => u.ledger.accountBalance(acct, false, "BRL", "available")),
  };
  out.merchant = await r.merchantBalances(acct, false, ["USD", "BRL", "EUR"]);
  out.merchantNone = await r.merchantBalances(acct, false, []);
  out.currencies = await r.merchantCurrencies(acct, false);
  out.currenciesLive = await r.merchantCurrencies(acct, true);
  out.tranche = await r.tranche(`tr_${acct}_1`);
  out.trancheInUnit = await store.tx((u) => u.ledger.trancheOfTransaction(acct, false, "tx3"));
  out.noTranche = await r.trancheOfTransaction(acct, true, "tx3");
  return out;
}

/** The scan rows of one merchant, in a fixed order (the port promises no order). */
async function scanOf(store: Store, acct: string) {
  const s = await store.read.ledger.scan();
  const mine = <T extends { accountId?: string; id?: string; entryId?: string }>(rows: T[]) =>
    rows
      .filter((x) => (x.accountId ?? x.id ?? x.entryId ?? "").includes(acct))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    entries: mine(s.entries),
    unbalanced: mine(s.unbalancedCurrencies),
    balances: mine(s.balances),
    tranches: mine(s.tranches),
  };
}

describe("the PostgreSQL ledger repository", () => {
  test("answers every method as the SQLite twin does", async () => {
    const acct = merchant();
    const sqlite = sqliteStore();
    const want = await ledgerScript(sqlite, acct);
    expect(want.post2).toEqual([500, 900, 50, 1_350]);
    expect(await ledgerScript(pg, acct)).toEqual(want);
    expect(await scanOf(pg, acct)).toEqual(await scanOf(sqlite, acct));
  });

  test("sums every shard of a balance and reports line groups without a balance row", async () => {
    const acct = merchant();
    await pg.tx((u) =>
      u.ledger.post(
        posting(acct, 1, [
          { ledgerAccount: "external_payer", amount: -300 },
          { ledgerAccount: "available", amount: 300 },
        ]),
      ),
    );
    const sql = raw(pg);
    // Other sessions' shards of the same balance (what other instances wrote).
    await sql.run(
      "insert into ledger_balances (account_id, livemode, currency, ledger_account, balance, updated_at, shard) values (?, false, 'BRL', 'available', 40, 0, 5000), (?, false, 'BRL', 'available', -15, 0, 5001)",
      acct,
      acct,
    );
    expect(await pg.read.ledger.accountBalance(acct, false, "BRL", "available")).toBe(325);
    expect((await pg.read.ledger.merchantBalances(acct, false, ["BRL"]))[0]!.available).toBe(325);
    // The balance a posting answers counts the other shards too.
    const after = await pg.tx((u) =>
      u.ledger.post(
        posting(acct, 2, [
          { ledgerAccount: "available", amount: -25 },
          { ledgerAccount: "external_payer", amount: 25 },
        ]),
      ),
    );
    expect(after).toEqual([300, 25 - 300]);
    // A balance is one scan row (shards summed); lines whose balance rows are gone are reported.
    await sql.run(
      "insert into ledger_lines (entry_id, account_id, livemode, currency, ledger_account, amount) values (?, ?, false, 'BRL', 'ghost', 9)",
      `je_${acct}_1`,
      acct,
    );
    const { balances } = await scanOf(pg, acct);
    expect(balances).toEqual([
      {
        accountId: acct,
        livemode: false,
        currency: "BRL",
        ledgerAccount: "available",
        materialised: 300,
        recomputed: 275,
      },
      {
        accountId: acct,
        livemode: false,
        currency: "BRL",
        ledgerAccount: "external_payer",
        materialised: -275,
        recomputed: -275,
      },
      { accountId: acct, livemode: false, currency: "BRL", ledgerAccount: "ghost", materialised: null, recomputed: 9 },
    ]);
  });
});

describe("concurrent postings on PostgreSQL", () => {
  let stores: PgStore[] = [];
  let shards: number[] = [];
  beforeAll(async () => {
    ({ stores, shards } = await shardedInstances(db, 6));
  }, PG_START_TIMEOUT);
  afterAll(async () => {
    for (const s of stores) await s.close();
  });

  /**
   * Moves `amount` between the merchant's `available` and `external_payer` in a unit that stays
   * open until `hold` settles (`onPosted` once its lines are written): positive credits
   * `available`, negative debits it.
   */
  const move = (store: Store, acct: string, key: string, amount: number, hold?: Promise<void>, onPosted?: () => void) =>
    store.tx(async (u) => {
      const id = await postEntry(u, {
        accountId: acct,
        livemode: false,
        currency: "BRL",
        kind: "t",
        causeKind: "t",
        causeId: key,
        idempotencyKey: key,
        lines: [
          { ledgerAccount: "external_payer", amount: -amount },
          { ledgerAccount: "available", amount },
        ],
        now: 1,
      });
      onPosted?.();
      await hold;
      return id;
    });
  const credit = (store: Store, acct: string, key: string, amount: number, hold?: Promise<void>) =>
    move(store, acct, key, amount, hold);
  const debit = (
    store: Store,
    acct: string,
    key: string,
    amount: number,
    hold?: Promise<void>,
    onPosted?: () => void,
  ) => move(store, acct, key, -amount, hold, onPosted);

  test("credits of one merchant from several sessions never wait on each other", async () => {
    const acct = merchant();
    const [a, b, c] = stores as [PgStore, PgStore, PgStore];
    const hold = deferred();
    const open = credit(a, acct, `${acct}:a`, 100, hold.promise);
    await Bun.sleep(50); // a's unit has posted and stays open
    // b and c post to the same merchant's balances while a holds its rows.
    expect(await settlesWithin(credit(b, acct, `${acct}:b`, 20), 3_000)).toBe(true);
    expect(await settlesWithin(credit(c, acct, `${acct}:c`, 3), 3_000)).toBe(true);
    hold.resolve();
    await open;
    expect(await pg.read.ledger.accountBalance(acct, false, "BRL", "available")).toBe(123);
    const rows = await raw(pg).all<{ shard: number }>(
      "select shard from ledger_balances where account_id = ? and ledger_account = 'available' order by shard",
      acct,
    );
    expect(rows.map((r) => r.shard)).toEqual([...shards.slice(0, 3)].sort((x, y) => x - y));
  });

  test("two debits that together exceed the balance cannot both succeed", async () => {
    const acct = merchant();
    const [a, b] = stores as [PgStore, PgStore];
    await credit(a, acct, `${acct}:in`, 100);
    const hold = deferred();
    const posted = deferred();
    const first = debit(a, acct, `${acct}:d1`, 70, hold.promise, () => posted.resolve());
    await posted.promise;
    // The second debit waits for the first (the advisory lock of `available` debits)...
    const second = debit(b, acct, `${acct}:d2`, 70);
    expect(await settlesWithin(second, 300)).toBe(false);
    hold.resolve();
    expect(await first).toBeString();
    // ...then sees it, and the domain refuses the negative balance.
    await expect(second).rejects.toBeInstanceOf(LedgerInvariantError);
    expect(await pg.read.ledger.accountBalance(acct, false, "BRL", "available")).toBe(30);
  });

  test("a debit the unit funded itself (a tranche released at once) takes no lock; a larger one does", async () => {
    const acct = merchant();
    const [a, b] = stores as [PgStore, PgStore];
    const line = (ledgerAccount: string, amount: number) => ({ ledgerAccount, amount });
    await a.tx((u) => u.ledger.post(posting(acct, 1, [line("external_payer", -50), line("pending", 50)])));
    /** Whether another unit's debit waited: `ms` is how long it may take when it needs no lock (a whole unit on a loaded machine). */
    const run = async (credited: number, debited: number, ms: number) => {
      const hold = deferred();
      const posted = deferred();
      const open = a.tx(async (u) => {
        await u.ledger.post(posting(acct, ++seq, [line("external_payer", -credited), line("pending", credited)]));
        await u.ledger.post(posting(acct, ++seq, [line("pending", -debited), line("available", debited)]));
        posted.resolve();
        await hold.promise;
      });
      await posted.promise;
      // Another unit's debit of the same ledger account (it needs the lock).
      const other = b.tx((u) => u.ledger.post(posting(acct, ++seq, [line("pending", -1), line("available", 1)])));
      const waited = !(await settlesWithin(other, ms));
      hold.resolve();
      await open;
      await other;
      return waited;
    };
    expect(await run(100, 100, 5_000)).toBe(false);
    expect(await run(10, 30, 300)).toBe(true);
    expect(await pg.read.ledger.accountBalance(acct, false, "BRL", "pending")).toBe(50 + 0 - 1 - 20 - 1);
  });

  test("a debit that waited sees a rolled-back debit as never written", async () => {
    const acct = merchant();
    const [a, b] = stores as [PgStore, PgStore];
    await credit(a, acct, `${acct}:in`, 100);
    const hold = deferred();
    const posted = deferred();
    const aborting = hold.promise.then(() => Promise.reject(new Error("abort")));
    const first = debit(a, acct, `${acct}:d1`, 70, aborting, () => posted.resolve());
    await posted.promise;
    const second = debit(b, acct, `${acct}:d2`, 70);
    expect(await settlesWithin(second, 300)).toBe(false);
    hold.resolve();
    await expect(first).rejects.toThrow("abort");
    expect(await second).toBeString();
    expect(await pg.read.ledger.accountBalance(acct, false, "BRL", "available")).toBe(30);
  });

  test("a balance read in a unit waits for an open debit of that ledger account", async () => {
    const acct = merchant();
    const [a, b] = stores as [PgStore, PgStore];
    await credit(a, acct, `${acct}:in`, 100);
    const hold = deferred();
    const posted = deferred();
    const first = debit(a, acct, `${acct}:d1`, 60, hold.promise, () => posted.resolve());
    await posted.promise;
    const read = b.tx((u) => u.ledger.accountBalance(acct, false, "BRL", "available"));
    expect(await settlesWithin(read, 300)).toBe(false);
    hold.resolve();
    await first;
    expect(await read).toBe(40);
    // Outside a unit nothing is locked: a read answers at once.
    const hold2 = deferred();
    const posted2 = deferred();
    const second = debit(a, acct, `${acct}:d2`, 10, hold2.promise, () => posted2.resolve());
    await posted2.promise;
    expect(await b.read.ledger.accountBalance(acct, false, "BRL", "available")).toBe(40);
    hold2.resolve();
    await second;
  });

  test("a cause posted by two units at once is posted once: the second unit runs again and finds it", async () => {
    const acct = merchant();
    const [a, b, c] = stores as [PgStore, PgStore, PgStore];
    const hold = deferred();
    const posted = deferred();
    const first = a.tx(async (u) => {
      await u.ledger.insertTranche({
        id: `tr_${acct}`,
        accountId: acct,
        livemode: false,
        currency: "BRL",
        transactionId: "tx",
        amount: 5,
        remaining: 5,
        releaseAt: 9,
        createdAt: 1,
      });
      const id = await postEntry(u, {
        accountId: acct,
        livemode: false,
        currency: "BRL",
        kind: "t",
        causeKind: "t",
        causeId: "x",
        idempotencyKey: `${acct}:same`,
        lines: [
          { ledgerAccount: "external_payer", amount: -5 },
          { ledgerAccount: "available", amount: 5 },
        ],
        now: 1,
      });
      posted.resolve();
      await hold.promise;
      return id;
    });
    await posted.promise;
    let runs = 0;
    const second = b.tx(async (u) => {
      runs++;
      if (await u.ledger.trancheOfTransaction(acct, false, "tx")) return "tranche seen";
      await u.ledger.insertTranche({
        id: `tr_${acct}_2`,
        accountId: acct,
        livemode: false,
        currency: "BRL",
        transactionId: "tx",
        amount: 5,
        remaining: 5,
        releaseAt: 9,
        createdAt: 1,
      });
      return "inserted";
    });
    const third = credit(c, acct, `${acct}:same`, 5);
    expect(await settlesWithin(Promise.race([second, third]), 300)).toBe(false);
    hold.resolve();
    expect(await first).toBeString();
    expect([await second, runs]).toEqual(["tranche seen", 2]);
    expect(await third).toBeNull();
    expect(await pg.read.ledger.accountBalance(acct, false, "BRL", "available")).toBe(5);
  });

  test("balances equal the sum of the journal after a concurrent mix of credits and debits", async () => {
    const accts = [merchant(), merchant()];
    const oracle = new Map<string, number>();
    let rng = 0x9e3779b9;
    const rand = (n: number) => {
      rng ^= rng << 13;
      rng ^= rng >>> 17;
      rng ^= rng << 5;
      return (rng >>> 0) % n;
    };
    const worker = async (store: PgStore, w: number) => {
      for (let i = 0; i < 40; i++) {
        const acct = accts[rand(2)]!;
        const amount = 1 + rand(50);
        const key = `${acct}:w${w}:${i}`;
        const isDebit = rand(3) === 0;
        try {
          if (isDebit) await debit(store, acct, key, amount);
          else await credit(store, acct, key, amount);
          oracle.set(acct, (oracle.get(acct) ?? 0) + (isDebit ? -amount : amount));
        } catch (err) {
          // A debit the balance could not cover (refused, rolled back): not in the oracle.
          if (!(err instanceof LedgerInvariantError)) throw err;
        }
      }
    };
    await Promise.all(stores.map((s, w) => worker(s, w)));
    for (const acct of accts) {
      const available = await pg.read.ledger.accountBalance(acct, false, "BRL", "available");
      expect(available).toBe(oracle.get(acct) ?? 0);
      expect(available).toBeGreaterThanOrEqual(0);
      expect(await pg.read.ledger.accountBalance(acct, false, "BRL", "external_payer")).toBe(0 - available);
    }
    const report = await verifyLedger(pg.read);
    expect(report.mismatches.filter((m) => accts.includes(m.accountId ?? ""))).toEqual([]);
    const used = await raw(pg).all<{ n: number }>(
      "select count(distinct shard) as n from ledger_balances where account_id = any(array[?, ?])",
      accts[0],
      accts[1],
    );
    expect(used[0]!.n).toBeGreaterThan(1);
  }, 60_000);
});
