// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * The per-instance caches of the PostgreSQL adapter follow writes made on another instance
 * (src/store/pg/account-cache.ts, connection-cache.ts): a settings change or a sandbox fault set
 * through one store reaches the other's next create through the notice, and a store without
 * notices does not cache at all.
 */
import { describe, expect, test } from "bun:test";
import { createPgStore, type PgStore } from "../../src/store/pg";
import { openPgPool } from "../../src/store/pg/pool";
import type { PgDatabase } from "../support/pg";
import { fileStores } from "./pg-twins";

let db: PgDatabase;
const open: PgStore[] = [];
fileStores([], (d) => (db = d), open);

function store(notices = true): PgStore {
  const s = createPgStore(openPgPool(db.url, { max: 2 }), { migrate: false, notices });
  open.push(s);
  return s;
}

/** Waits (bounded) until `check` holds: a notice takes a few milliseconds to arrive. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await check()) return;
    await Bun.sleep(5);
  }
  throw new Error("the notice never arrived");
}

let seq = 0;
async function account(s: PgStore): Promise<string> {
  const id = `acct_cache_${++seq}`;
  await s.tx((u) => u.accounts.insert({ id, name: "Loja Cache", createdAt: 1 }));
  return id;
}

describe("the account cache of creates", () => {
  test("a settings change committed on another instance reaches this one's next read", async () => {
    const [a, b] = [store(), store()];
    await Promise.all([a.started, b.started]);
    const id = await account(a);
    expect((await a.read.charges.accountForCreate(id))!.settings.pix_fee_bps).toBe(0);
    // Served from the cache now: a write behind the store's back is not seen...
    await db.sql`update accounts set name = 'Renamed by hand' where id = ${id}`;
    expect((await a.read.charges.accountForCreate(id))!.name).toBe("Loja Cache");
    // ...but a write through any instance is.
    await b.tx((u) => u.accounts.updateSettings(id, { pixFeeBps: 150 }));
    await eventually(async () => (await a.read.charges.accountForCreate(id))!.settings.pix_fee_bps === 150);
    expect((await a.read.charges.accountForCreate(id))!.name).toBe("Renamed by hand");
  });

  test("faults set through another instance are seen by this one's next create", async () => {
    const [a, b] = [store(), store()];
    await Promise.all([a.started, b.started]);
    const id = await account(a);
    expect(await a.read.charges.faultsLeft(id)).toBe(0); // "none pending" is now cached
    await b.tx((u) => u.charges.setFaults(id, "reject", 2, 5));
    await eventually(async () => (await a.read.charges.faultsLeft(id)) === 2);
  });

  test("the instance that wrote sees its own write at once, before any notice", async () => {
    const a = store();
    await a.started;
    const id = await account(a);
    expect(await a.read.charges.faultsLeft(id)).toBe(0);
    await a.tx((u) => u.charges.setFaults(id, "unavailable", 1, 5));
    expect(await a.read.charges.faultsLeft(id)).toBe(1);
    await a.tx((u) => u.accounts.updateSettings(id, { defaultExpiresIn: 120 }));
    expect((await a.read.charges.accountForCreate(id))!.settings.default_expires_in).toBe(120);
  });

  test("a store without notices never caches (nobody could tell it about another writer)", async () => {
    const a = store(false);
    await a.started;
    const id = await account(a);
    expect((await a.read.charges.accountForCreate(id))!.settings.pix_fee_bps).toBe(0);
    await db.sql`update accounts set pix_fee_bps = 75 where id = ${id}`;
    expect((await a.read.charges.accountForCreate(id))!.settings.pix_fee_bps).toBe(75);
  });
});
