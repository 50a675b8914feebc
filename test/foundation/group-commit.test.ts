// sqlite-only: SQLite group commit (one COMMIT per event-loop turn on the bun:sqlite handle)
/**
 * Group commit (src/store/sqlite/group-commit.ts): one SQLite commit per event-loop turn, nothing acknowledged before
 * it.
 */
import { describe, expect, test } from "bun:test";
import { tx } from "../../src/store/sqlite/client";
import { committed, enableGroupCommit, flushGroupCommit } from "../../src/store/sqlite/group-commit";
import { createHarness } from "../support/harness";
import { dbOf } from "../support/db";

const turn = () => new Promise<void>((r) => setImmediate(r));

function groupHarness() {
  const h = createHarness();
  const errors: unknown[] = [];
  enableGroupCommit(dbOf(h.deps).$client, (err) => errors.push(err));
  const c = dbOf(h.deps).$client;
  c.exec("create table gc_probe (v integer not null)");
  const values = () => (c.query("select v from gc_probe order by v").all() as { v: number }[]).map((r) => r.v);
  const insert = (v: number) => tx(dbOf(h.deps), () => void c.run("insert into gc_probe (v) values (?)", [v]));
  return { h, c, errors, values, insert };
}

describe("group commit", () => {
  test("the transactions of one turn share one open transaction that commits at the end of the turn", async () => {
    const { c, insert, values } = groupHarness();
    insert(1);
    insert(2);
    expect(c.inTransaction).toBe(true);
    expect(committed(c)).toBeInstanceOf(Promise);
    await turn();
    expect(c.inTransaction).toBe(false);
    expect(committed(c)).toBeNull();
    expect(values()).toEqual([1, 2]);
  });

  test("a throwing transaction rolls back only its own writes", async () => {
    const { c, insert, values, h } = groupHarness();
    insert(1);
    expect(() =>
      tx(dbOf(h.deps), () => {
        c.run("insert into gc_probe (v) values (99)");
        throw new Error("boom");
      }),
    ).toThrow("boom");
    insert(3);
    await turn();
    expect(values()).toEqual([1, 3]);
  });

  test("a response produced while a group is open is sent only after its commit", async () => {
    const { h, c, insert } = groupHarness();
    insert(7);
    let settled = false;
    const res = h.call("GET", "/healthz").then((r) => {
      settled = true;
      // By the time the response is out, the turn's writes are committed.
      expect(c.inTransaction).toBe(false);
      return r;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    expect((await res).status).toBe(200);
  });

  test("a created charge is committed before its 201 is returned", async () => {
    const { h, c } = groupHarness();
    const a = await h.seedAccount();
    const r = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      headers: { "idempotency-key": "group-commit-1" },
      body: { amount: 1500 },
    });
    expect(r.status).toBe(201);
    expect(c.inTransaction).toBe(false);
    const again = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      headers: { "idempotency-key": "group-commit-1" },
      body: { amount: 1500 },
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(r.body.id);
  });

  test("a failed commit fails the waiting response and reports the error", async () => {
    const { h, c, insert, errors, values } = groupHarness();
    insert(5);
    const res = h.call("GET", "/healthz");
    c.run("ROLLBACK"); // what SQLite does to the whole transaction on e.g. an I/O error
    const r = await res;
    expect(r.status).toBe(500);
    expect(r.body.error.code).toBe("internal_error");
    expect(errors).toHaveLength(1);
    expect(values()).toEqual([]);
  });

  test("flushGroupCommit commits the open group at once (shutdown)", async () => {
    const { h, c, insert, values } = groupHarness();
    await h.deps.startup; // no unit of work of the start-up still running (it would hold the flush)
    insert(4);
    flushGroupCommit(c);
    expect(c.inTransaction).toBe(false);
    expect(values()).toEqual([4]);
  });
});
