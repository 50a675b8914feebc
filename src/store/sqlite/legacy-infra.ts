/**
 * TRANSITIONAL (issue 16): a repository over a drizzle transaction handle passed by code not yet
 * moved to units of work (the `t` of `tx(deps.db, (t) => ...)` where a `Uow` is now expected).
 * Its statements run at once on the handle's connection, so inside that open transaction. Goes
 * when the last `Tx` parameter does.
 */
import type { Database, Statement } from "bun:sqlite";
import type { Db, Tx } from "../../db/client";
import type { SqliteContext } from "./context";

const contexts = new WeakMap<object, SqliteContext>();
const repos = new WeakMap<object, WeakMap<object, unknown>>();

/** The connection context under the drizzle handle `t` (its statements cached per handle). */
function contextOf(t: Tx): SqliteContext {
  let ctx = contexts.get(t);
  if (!ctx) {
    const client = (t as unknown as { session: { client: Database } }).session.client;
    const statements = new Map<string, Statement>();
    ctx = {
      db: t as unknown as Db,
      client,
      stmt(sql) {
        let st = statements.get(sql);
        if (!st) statements.set(sql, (st = client.prepare(sql)));
        return st;
      },
    };
    contexts.set(t, ctx);
  }
  return ctx;
}

/** The repository `factory` builds, over the connection of the legacy handle `t` (built once per handle). */
export function legacyRepo<R>(t: Tx, factory: (ctx: SqliteContext) => R): R {
  let byHandle = repos.get(factory);
  if (!byHandle) repos.set(factory, (byHandle = new WeakMap()));
  let repo = byHandle.get(t) as R | undefined;
  if (!repo) byHandle.set(t, (repo = factory(contextOf(t))));
  return repo;
}
