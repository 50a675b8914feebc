// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * Durable idempotency claims on PostgreSQL (src/store/pg/claims.ts): two instances on one
 * database never both hold a key, and a claim whose holding instance died is taken over by the
 * same request at once, not after its 60 s lock.
 */
import { describe, expect, test } from "bun:test";
import { createPgStore, type PgStore } from "../../src/store/pg";
import { PgIdempotencyClaims } from "../../src/store/pg/claims";
import { openPgPool } from "../../src/store/pg/pool";
import type { ClaimRef } from "../../src/store/port/claims";
import type { PgDatabase } from "../support/pg";
import { fileStores } from "./pg-twins";

let db: PgDatabase;
const open: PgStore[] = [];
fileStores([], (d) => (db = d), open);

/** A named instance (its own pool, notices on: it keeps a session for as long as it lives). */
function instance(name: string): { store: PgStore; claims: PgIdempotencyClaims } {
  const store = createPgStore(openPgPool(db.url, { max: 2, applicationName: name }), {
    migrate: false,
    instanceName: name,
  });
  open.push(store);
  return { store, claims: new PgIdempotencyClaims(store) };
}

/**
 * After `close()` the client's sockets are shut, but the server ends each backend a moment later:
 * waits until pg_stat_activity shows no session of `name` (what a killed process looks like to its
 * peers), polling; fails after 10 s.
 */
async function sessionsGone(name: string): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until; await Bun.sleep(10)) {
    const [row] = await db.sql`select count(*)::int as n from pg_stat_activity where application_name = ${name}`;
    if (row.n === 0) return;
  }
  throw new Error(`sessions of ${name} still open 10 s after close()`);
}

let n = 0;
const NOW = Date.parse("2026-11-20T12:00:00Z");
function claim(key: string, requestHash = "hash-a"): ClaimRef {
  return {
    id: `idem_${++n}`,
    accountId: "acct_1",
    livemode: true,
    scope: "POST /v1/pix/charges",
    key,
    requestHash,
    createdAt: NOW,
  };
}

describe("durable idempotency claims across instances", () => {
  test("a key held by a live instance is refused to another one, with the holder's hash", async () => {
    const a = instance("cofre-test-a1");
    const b = instance("cofre-test-b1");
    expect(await a.claims.acquire("k", claim("live-holder"), NOW, NOW + 60_000)).toBeNull();
    expect(await b.claims.acquire("k", claim("live-holder"), NOW + 1, NOW + 60_001)).toEqual({ requestHash: "hash-a" });
    expect(await b.claims.acquire("k", claim("live-holder", "hash-b"), NOW + 1, NOW + 60_001)).toEqual({
      requestHash: "hash-a",
    });
  });

  test("the same request takes over at once the claim of an instance that died, keeping the record's id", async () => {
    const a = instance("cofre-test-a2");
    const b = instance("cofre-test-b2");
    const first = claim("dead-holder");
    expect(await a.claims.acquire("k", first, NOW, NOW + 60_000)).toBeNull();
    await a.store.close(); // every session of a is gone, as when its process is killed
    await sessionsGone("cofre-test-a2");
    const retry = claim("dead-holder");
    expect(await b.claims.acquire("k", retry, NOW + 1_000, NOW + 61_000)).toBeNull();
    expect(retry.id).toBe(first.id);
    const [row] = await db.sql`select holder, locked_until from idempotency_keys where id = ${first.id}`;
    expect([row.holder, Number(row.locked_until)]).toEqual(["cofre-test-b2", NOW + 61_000]);
  });

  test("another body never takes over a dead instance's claim", async () => {
    const a = instance("cofre-test-a3");
    const b = instance("cofre-test-b3");
    expect(await a.claims.acquire("k", claim("dead-other-body"), NOW, NOW + 60_000)).toBeNull();
    await a.store.close();
    await sessionsGone("cofre-test-a3");
    expect(await b.claims.acquire("k", claim("dead-other-body", "hash-b"), NOW + 1_000, NOW + 61_000)).toEqual({
      requestHash: "hash-a",
    });
  });

  test("two retries racing for a dead instance's claim take it once", async () => {
    const a = instance("cofre-test-a4");
    const b = instance("cofre-test-b4");
    const c = instance("cofre-test-c4");
    expect(await a.claims.acquire("k", claim("race"), NOW, NOW + 60_000)).toBeNull();
    await a.store.close();
    await sessionsGone("cofre-test-a4");
    const results = await Promise.all([
      b.claims.acquire("k", claim("race"), NOW + 1, NOW + 60_001),
      c.claims.acquire("k", claim("race"), NOW + 1, NOW + 60_001),
    ]);
    expect(results.filter((r) => r === null)).toHaveLength(1);
  });

  test("an unnamed store (no permanent session) is never presumed dead: its claim waits for its lock", async () => {
    const unnamed = createPgStore(openPgPool(db.url, { max: 1 }), { migrate: false, notices: false });
    open.push(unnamed);
    const b = instance("cofre-test-b5");
    expect(await new PgIdempotencyClaims(unnamed).acquire("k", claim("unnamed"), NOW, NOW + 60_000)).toBeNull();
    await unnamed.close();
    expect(await b.claims.acquire("k", claim("unnamed"), NOW + 1_000, NOW + 61_000)).toEqual({ requestHash: "hash-a" });
    expect(await b.claims.acquire("k", claim("unnamed"), NOW + 60_000, NOW + 120_000)).toBeNull();
  });
});
