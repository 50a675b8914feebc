// sqlite-only: the request-log FILE (request-log.db, a SQLite file written by a worker thread) and its schema next to
// the main SQLite database
/** The request log in its own file, written by a worker thread (what `serve` uses). */
import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHarness, type Harness } from "../support/harness";
import { openRequestLogFile, type RequestLogFile } from "../../src/store/sqlite/request-log-file";
import { recordRequest } from "../../src/domain/audit/request-log";
import { useRequestLogFile } from "../../src/store/sqlite/request-log";
import { loginToken } from "./support";
import { dbOf } from "../support/db";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function fileHarness(): { h: Harness; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "cofre-reqlog-"));
  const h = createHarness({ dataDir: dir });
  cleanup.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => dbOf(h.deps).$client.close(),
  );
  return { h, dir };
}

async function attach(h: Harness, dir: string): Promise<RequestLogFile> {
  const file = await openRequestLogFile(join(dir, "request-log.db"), h.deps.store);
  useRequestLogFile(h.deps.store, file);
  cleanup.push(() => file.close());
  return file;
}

const count = (path: string) => {
  const c = new Database(path, { readonly: true });
  try {
    return (c.query("select count(*) as n from request_logs").get() as { n: number }).n;
  } finally {
    c.close();
  }
};

describe("request log file", () => {
  test("a request is listed at once, and its row lives in request-log.db, not in the main database", async () => {
    const { h, dir } = fileHarness();
    await attach(h, dir);
    const a = await h.seedAccount();
    const token = await loginToken(h, a.email, a.password);
    expect((await h.call("GET", "/v1/ping", { key: a.testKey })).status).toBe(200);
    expect((await h.call("GET", "/v1/ping", { key: a.liveKey })).status).toBe(200);
    const r = await h.call("GET", "/v1/request-logs", { bearer: token });
    expect(r.status).toBe(200);
    expect(r.body.data.map((e: { path: string; mode: string; status: number }) => [e.path, e.mode, e.status])).toEqual([
      ["/v1/ping", "live", 200],
      ["/v1/ping", "test", 200],
    ]);
    expect(count(join(dir, "request-log.db"))).toBe(2);
    expect((dbOf(h.deps).$client.query("select count(*) as n from request_logs").get() as { n: number }).n).toBe(0);
  });

  test("rows of the main database move to the file once, oldest first, and the cursor keeps working", async () => {
    const { h, dir } = fileHarness();
    const a = await h.seedAccount();
    const token = await loginToken(h, a.email, a.password);
    for (let i = 0; i < 3; i++) expect((await h.call("GET", "/v1/ping", { key: a.testKey })).status).toBe(200);
    const before = await h.call("GET", "/v1/request-logs", { bearer: token });
    expect(before.body.data).toHaveLength(3);
    await attach(h, dir);
    expect((dbOf(h.deps).$client.query("select count(*) as n from request_logs").get() as { n: number }).n).toBe(0);
    expect((await h.call("GET", "/v1/ping?after=1", { key: a.testKey })).status).toBe(200);
    const all = await h.call("GET", "/v1/request-logs", { bearer: token });
    expect(all.body.data.map((e: { id: string }) => e.id).slice(1)).toEqual(
      before.body.data.map((e: { id: string }) => e.id),
    );
    const page = await h.call("GET", `/v1/request-logs?limit=2&starting_after=${all.body.data[1].id}`, {
      bearer: token,
    });
    expect(page.body.data.map((e: { id: string }) => e.id)).toEqual(
      all.body.data.slice(2, 4).map((e: { id: string }) => e.id),
    );
  });

  test("the file's table has exactly the columns and indexes of the main database's request_logs", async () => {
    const { h, dir } = fileHarness();
    const file = await attach(h, dir);
    await file.flushed();
    const shape = (c: Database) => ({
      columns: c.query("select name, type, \"notnull\", pk from pragma_table_info('request_logs') order by cid").all(),
      indexes: c.query("select name, \"unique\" from pragma_index_list('request_logs') order by name").all(),
    });
    const logFile = new Database(join(dir, "request-log.db"), { readonly: true });
    try {
      expect(shape(logFile)).toEqual(shape(dbOf(h.deps).$client));
      expect(shape(logFile).columns).toHaveLength(11);
    } finally {
      logFile.close();
    }
  });

  test("close writes what is still queued, and rows recorded after close are dropped without error", async () => {
    const { h, dir } = fileHarness();
    const file = await attach(h, dir);
    const row = (i: number) => ({
      accountId: "acct_x",
      livemode: false,
      method: "GET",
      path: `/v1/ping/${i}`,
      status: 200,
      requestId: `req_${i}`,
      keyFingerprint: "f".repeat(64),
      durationMs: 1,
      at: h.clock.nowMs(),
    });
    for (let i = 0; i < 5; i++) recordRequest(h.deps, row(i)); // queued, not yet handed over
    await file.close();
    recordRequest(h.deps, row(9));
    await file.close();
    expect(count(join(dir, "request-log.db"))).toBe(5);
  });
});
