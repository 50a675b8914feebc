// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/**
 * The PostgreSQL request log (src/store/pg/request-log.ts): one `request_logs` table that every
 * instance writes in batches; two stores (two pools, as two instances) on one database.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { newId } from "../../src/lib/ids";
import { createPgStore, type PgStore } from "../../src/store/pg";
import { openPgPool } from "../../src/store/pg/pool";
import { FLUSH_MS, MAX_BATCH } from "../../src/store/pg/request-log";
import type { RequestLogEntry } from "../../src/store/port/request-log";
import { PG_START_TIMEOUT, pgDatabase, type PgDatabase } from "../support/pg";

const T0 = Date.parse("2026-11-20T12:00:00.000Z");
const ACCT = "acct_one";

let db: PgDatabase;
let open: PgStore[] = [];
beforeAll(async () => {
  db = await pgDatabase();
}, PG_START_TIMEOUT);
afterAll(() => db.drop());
beforeEach(async () => {
  await db.sql`delete from request_logs`;
});
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

async function instance(): Promise<PgStore> {
  const s = createPgStore(openPgPool(db.url, { max: 4 }), { migrate: false, notices: false });
  open.push(s);
  await s.started;
  return s;
}

let n = 0;
const entry = (over: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  id: newId("requestLog"),
  accountId: ACCT,
  livemode: false,
  method: "GET",
  path: `/v1/charges/${++n}`,
  status: 200,
  requestId: `req-${n}`,
  keyFingerprint: "f".repeat(64),
  durationMs: 3,
  createdAt: T0 + n,
  ...over,
});
const ids = (rows: { id: string }[] | null) => rows!.map((r) => r.id);

describe("request log on PostgreSQL", () => {
  test("entries of two instances are all listed, newest first, once flushed", async () => {
    const [a, b] = [await instance(), await instance()];
    const fromA = [entry(), entry(), entry()];
    const fromB = [entry({ livemode: true, status: 404 }), entry()];
    for (const e of fromA) a.read.requestLog.append(e);
    await a.read.requestLog.flushed();
    for (const e of fromB) b.read.requestLog.append(e);
    await b.read.requestLog.flushed();
    const all = [...fromA, ...fromB].reverse();
    for (const s of [a, b])
      expect(ids(await s.read.requestLog.page(ACCT, { limit: 10 }))).toEqual(all.map((e) => e.id));
    const [newest] = (await a.read.requestLog.page(ACCT, { limit: 1 }))!;
    expect(newest).toEqual({ seq: expect.any(Number), ...fromB[1]! });
    const [b404] = (await a.read.requestLog.page(ACCT, { limit: 10, status: 404 }))!;
    expect(b404).toEqual({ seq: expect.any(Number), ...fromB[0]! });
  });

  test("an appended entry is written within about FLUSH_MS, and flushed() makes one readable at once", async () => {
    const a = await instance();
    const e = entry();
    a.read.requestLog.append(e);
    // Written by the batch timer, nobody asking (polls: the shared box may be slow).
    let rows = await a.read.requestLog.page(ACCT, { limit: 5 });
    for (let i = 0; i < 100 && rows!.length === 0; i++) {
      await Bun.sleep(FLUSH_MS);
      rows = await a.read.requestLog.page(ACCT, { limit: 5 });
    }
    expect(ids(rows)).toEqual([e.id]);
    const f = entry();
    a.read.requestLog.append(f);
    await a.read.requestLog.flushed();
    expect(ids(await a.read.requestLog.page(ACCT, { limit: 5 }))).toEqual([f.id, e.id]);
  });

  test("more entries than one batch holds are written in append order", async () => {
    const a = await instance();
    const many = Array.from({ length: MAX_BATCH + 7 }, () => entry());
    for (const e of many) a.read.requestLog.append(e);
    await a.read.requestLog.flushed();
    const rows = (await db.sql`select id from request_logs order by seq`) as { id: string }[];
    expect(rows.map((r) => r.id)).toEqual(many.map((e) => e.id));
  });

  test("pages with startingAfter: older entries only, null for a cursor of another account or unknown", async () => {
    const [a, b] = [await instance(), await instance()];
    const es = Array.from({ length: 5 }, () => entry());
    const other = entry({ accountId: "acct_two" });
    a.read.requestLog.append(es[0]!);
    a.read.requestLog.append(es[1]!);
    a.read.requestLog.append(other);
    await a.read.requestLog.flushed();
    for (const e of es.slice(2)) b.read.requestLog.append(e);
    await b.read.requestLog.flushed();
    const log = a.read.requestLog;
    expect(ids(await log.page(ACCT, { limit: 2 }))).toEqual([es[4]!.id, es[3]!.id]);
    expect(ids(await log.page(ACCT, { limit: 2, startingAfter: es[3]!.id }))).toEqual([es[2]!.id, es[1]!.id]);
    expect(ids(await log.page(ACCT, { limit: 2, startingAfter: es[1]!.id }))).toEqual([es[0]!.id]);
    expect(await log.page(ACCT, { limit: 2, startingAfter: es[0]!.id })).toEqual([]);
    expect(await log.page(ACCT, { limit: 2, startingAfter: other.id })).toBeNull();
    expect(await log.page(ACCT, { limit: 2, startingAfter: "req_nope" })).toBeNull();
    expect(ids(await log.page("acct_two", { limit: 5 }))).toEqual([other.id]);
    expect(ids(await log.page(ACCT, { limit: 5, keyFingerprint: "0".repeat(64) }))).toEqual([]);
  });

  test("pruneBefore deletes what is older than the oldest entry kept, and counts it", async () => {
    const a = await instance();
    const es = [entry({ createdAt: T0 }), entry({ createdAt: T0 + 10 }), entry({ createdAt: T0 + 20 })];
    for (const e of es) a.read.requestLog.append(e);
    expect(await a.read.requestLog.pruneBefore(T0 + 10)).toBe(1); // flushes first
    expect(ids(await a.read.requestLog.page(ACCT, { limit: 5 }))).toEqual([es[2]!.id, es[1]!.id]);
    expect(await a.read.requestLog.pruneBefore(T0 + 1000)).toBe(2);
    expect(await a.read.requestLog.page(ACCT, { limit: 5 })).toEqual([]);
  });

  test("a failed batch is logged and dropped; later entries are still written", async () => {
    const errors: unknown[] = [];
    const logger = { error: (o: unknown) => void errors.push(o), warn: () => {} };
    const s = createPgStore(openPgPool(db.url, { max: 2 }), {
      migrate: false,
      notices: false,
      logger: logger as never,
    });
    open.push(s);
    await s.started;
    const dup = entry();
    s.read.requestLog.append(dup);
    await s.read.requestLog.flushed();
    s.read.requestLog.append({ ...dup }); // the same id again: the unique key refuses the batch
    await s.read.requestLog.flushed();
    expect(errors).toHaveLength(1);
    const later = entry();
    s.read.requestLog.append(later);
    await s.read.requestLog.flushed();
    expect(ids(await s.read.requestLog.page(ACCT, { limit: 5 }))).toEqual([later.id, dup.id]);
  });

  test("closing the store writes the queue first", async () => {
    const a = await instance();
    const e = entry();
    a.read.requestLog.append(e);
    await a.close();
    open = open.filter((s) => s !== a);
    const rows = (await db.sql`select id from request_logs`) as { id: string }[];
    expect(rows.map((r) => r.id)).toEqual([e.id]);
  });
});
