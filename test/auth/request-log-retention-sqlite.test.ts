// sqlite-only: the request-log FILE (request-log.db, written by a worker thread) exists only on SQLite
/**
 * Request-log retention on the request-log file `serve` uses with SQLite (the neutral tests:
 * request-log-retention.test.ts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHarness } from "../support/harness";
import { openRequestLogFile } from "../../src/store/sqlite/request-log-file";
import { useRequestLogFile } from "../../src/store/sqlite/request-log";
import { oldAndNew, paths } from "./request-log-support";
import { dbOf } from "../support/db";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

describe("request log retention", () => {
  test("the same prune applies to the request-log file serve uses", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cofre-reqlog-ret-"));
    const h = createHarness({ dataDir: dir });
    const file = await openRequestLogFile(join(dir, "request-log.db"), h.deps.store);
    useRequestLogFile(h.deps.store, file);
    cleanup.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => dbOf(h.deps).$client.close(),
      () => file.close(),
    );
    const { token } = await oldAndNew(h);
    expect(await paths(h, token)).toEqual(["/v1/ping"]);
  });
});
