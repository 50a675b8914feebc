/** Request-log retention: the hourly prune drops rows older than COFRE_REQUEST_LOG_RETENTION_DAYS. */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHarness, type Harness } from "../support/harness";
import { openRequestLogFile } from "../../src/store/sqlite/request-log-file";
import { useRequestLogFile } from "../../src/store/sqlite/request-log";
import { loginToken } from "./support";
import { dbOf } from "../support/db";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

const HOUR = 3600;

async function paths(h: Harness, token: string): Promise<string[]> {
  const r = await h.call("GET", "/v1/request-logs?limit=100", { bearer: token });
  expect(r.status).toBe(200);
  return r.body.data.map((e: { path: string }) => e.path);
}

/** Calls made 31 days ago and now; then the prune runs. */
async function oldAndNew(h: Harness) {
  const a = await h.seedAccount();
  expect((await h.call("GET", "/v1/ping?old=1", { key: a.testKey })).status).toBe(200);
  expect((await h.call("GET", "/v1/ping?old=2", { key: a.testKey })).status).toBe(200);
  h.clock.advance(31 * 24 * HOUR);
  const token = await loginToken(h, a.email, a.password); // dashboard tokens last 12 h
  expect((await h.call("GET", "/v1/ping?new=1", { key: a.testKey })).status).toBe(200);
  expect(await paths(h, token)).toHaveLength(3);
  h.clock.advance(HOUR); // the hourly prune falls due
  await h.deps.jobs.drain();
  return { a, token };
}

describe("request log retention", () => {
  test("rows older than 30 days (the default) are pruned within the hour; newer ones stay", async () => {
    const h = createHarness();
    expect(h.deps.config.requestLogRetentionDays).toBe(30);
    const { token } = await oldAndNew(h);
    expect(await paths(h, token)).toEqual(["/v1/ping"]);
  });

  test("the same prune applies to the request-log file serve uses", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cofre-reqlog-ret-"));
    const h = createHarness({ dataDir: dir });
    const file = await openRequestLogFile(join(dir, "request-log.db"), h.deps.store);
    useRequestLogFile(h.deps.store, file);
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }), () => dbOf(h.deps).$client.close(), () => file.close());
    const { token } = await oldAndNew(h);
    expect(await paths(h, token)).toEqual(["/v1/ping"]);
  });

  test("0 days keeps every row", async () => {
    const h = createHarness({ requestLogRetentionDays: 0 });
    const { token } = await oldAndNew(h);
    expect(await paths(h, token)).toHaveLength(3);
  });
});
