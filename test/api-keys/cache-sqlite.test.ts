// sqlite-only: SQLite's group commit and a transaction opened on the shared connection outside the store (BEGIN
// IMMEDIATE)
/**
 * The key cache's "settled" rule where SQLite has it (src/store/sqlite/api-keys.ts): reads inside a transaction the
 * store did not open.
 */
import { describe, expect, test } from "bun:test";
import { apiKeyCacheSize, resolveApiKey } from "../../src/domain/api-keys/cache";
import { enableGroupCommit, enterGroup, flushGroupCommit } from "../../src/store/sqlite/group-commit";
import { authHarness, PROBE, seedWithToken } from "../auth/support";
import { cleartext, insertKeyRow } from "./cache-support";
import { dbOf } from "../support/db";

describe("api key cache: group commit", () => {
  test("under group commit (serve) a key read inside the turn's open group is cached too", async () => {
    const h = authHarness();
    enableGroupCommit(dbOf(h.deps).$client);
    const a = await seedWithToken(h);
    enterGroup(dbOf(h.deps).$client); // as when an earlier request of the same turn wrote something
    expect(dbOf(h.deps).$client.inTransaction).toBe(true);
    expect((await h.call("GET", PROBE, { key: a.testKey })).status).toBe(200);
    expect(apiKeyCacheSize(h.deps)).toBe(1);
    flushGroupCommit(dbOf(h.deps).$client);
  });
});

describe("api key cache: only committed rows are remembered", () => {
  test("a key read inside an open transaction that then rolls back is not remembered", async () => {
    const h = authHarness();
    const a = await seedWithToken(h);
    const clear = cleartext("test");
    dbOf(h.deps).$client.exec("BEGIN IMMEDIATE");
    await insertKeyRow(h, a.accountId, clear);
    expect((await resolveApiKey(h.deps, clear))?.accountId).toBe(a.accountId);
    dbOf(h.deps).$client.exec("ROLLBACK");
    expect(await resolveApiKey(h.deps, clear)).toBeUndefined();
    expect((await h.call("GET", PROBE, { key: clear })).status).toBe(401);
  });
});
