// sqlite-only: the SQLite adapter's unit lock, savepoints and group commit on a bun:sqlite handle
/**
 * The SQLite adapter's units of work (src/store/sqlite/index.ts): all-or-nothing, never
 * interleaved, savepoints inside the group commit, commit hooks only after a commit.
 */
import { describe, expect, test } from "bun:test";
import { openDb } from "../../src/store/sqlite/client";
import { enableGroupCommit } from "../../src/store/sqlite/group-commit";
import { createSqliteStore } from "../../src/store/sqlite";

function store(opts: Parameters<typeof createSqliteStore>[1] = {}) {
  const db = openDb(":memory:");
  db.$client.exec("create table t (x integer not null)");
  const s = createSqliteStore(db, opts);
  const put = (x: number) => s.ctx.client.run("insert into t (x) values (?)", [x]);
  const rows = () => (s.ctx.client.query("select x from t order by rowid").all() as { x: number }[]).map((r) => r.x);
  return { s, put, rows };
}
const tick = () => new Promise<void>((r) => setImmediate(r));

describe("a unit of work", () => {
  test("commits its writes and returns what its function returned", async () => {
    const { s, put, rows } = store();
    expect(
      await s.tx(async () => {
        put(1);
        put(2);
        return "done";
      }),
    ).toBe("done");
    expect(rows()).toEqual([1, 2]);
  });

  test("rolls back every write when its function throws after an await, and rethrows", async () => {
    const { s, put, rows } = store();
    const failing = s.tx(async () => {
      put(1);
      await tick();
      put(2);
      throw new Error("boom");
    });
    await expect(failing).rejects.toThrow("boom");
    expect(rows()).toEqual([]);
    expect(s.ctx.client.inTransaction).toBe(false);
  });

  test("runs afterCommit hooks in order after a commit and never after a rollback", async () => {
    const heard: string[] = [];
    const { s } = store({ logger: { error: () => heard.push("logged") } as never });
    await s.tx(async (u) => {
      u.afterCommit(() => heard.push("a"));
      u.afterCommit(() => {
        throw new Error("hook");
      });
      u.afterCommit(() => heard.push("b"));
      heard.push("body");
    });
    await s
      .tx(async (u) => {
        u.afterCommit(() => heard.push("never"));
        throw new Error("x");
      })
      .catch(() => {});
    expect(heard).toEqual(["body", "a", "logged", "b"]);
  });

  test("never interleaves with another unit, even across a macrotask", async () => {
    const { s, put, rows } = store();
    const order: string[] = [];
    const first = s.tx(async () => {
      order.push("first:start");
      put(1);
      await tick();
      await tick();
      put(2);
      order.push("first:end");
    });
    const second = s.tx(async () => {
      order.push("second");
      put(3);
    });
    await Promise.all([first, second]);
    expect(order).toEqual(["first:start", "first:end", "second"]);
    expect(rows()).toEqual([1, 2, 3]);
  });

  test("is a savepoint of the turn's group under group commit: a failing unit loses only its own writes", async () => {
    const { s, put, rows } = store();
    enableGroupCommit(s.ctx.client);
    const ok = s.tx(async () => put(1));
    const bad = s.tx(async () => {
      put(2);
      throw new Error("no");
    });
    const ok2 = s.tx(async () => put(3));
    await Promise.allSettled([ok, bad, ok2]);
    expect(s.durable()).not.toBeNull();
    await s.durable();
    expect(rows()).toEqual([1, 3]);
    expect(s.ctx.client.inTransaction).toBe(false);
  });

  test("is never split by the group's COMMIT when it awaits past the end of the turn", async () => {
    const { s, put, rows } = store();
    enableGroupCommit(s.ctx.client);
    const slow = s.tx(async () => {
      put(1);
      await tick();
      await tick();
      put(2);
      throw new Error("late");
    });
    await expect(slow).rejects.toThrow("late");
    await s.durable();
    expect(rows()).toEqual([]);
  });

  test("fails with a message naming the mistake when a unit opens another unit", async () => {
    const { s, rows } = store({ lockWaitMs: 50 });
    const nested = s.tx(async () => s.tx(async () => 1));
    await expect(nested).rejects.toThrow(/store.tx or store.read called inside a unit of work/);
    expect(rows()).toEqual([]);
    expect(await s.tx(async () => 2)).toBe(2); // the lock was released
  });
});
