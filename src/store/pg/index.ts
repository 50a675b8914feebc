/**
 * The PostgreSQL adapter of the storage port (src/store/port.ts), selected by COFRE_DATABASE_URL:
 * a Bun.SQL pool, READ COMMITTED units of work retried on serialisation failures and deadlocks,
 * cross-instance notices over LISTEN/NOTIFY. Any number of `cofre serve` processes may share one
 * database (extensions.md "PostgreSQL and many instances"); docs/architecture.md has the rules.
 *
 * - A unit of work is one `BEGIN ... COMMIT` on a pooled connection. Repositories lock what
 *   they read before writing from it (`FOR UPDATE`, or a conditional `UPDATE ... WHERE status =
 *   $from`), so the unit needs no stronger isolation. SQLSTATE 40001 (serialization_failure) and
 *   40P01 (deadlock_detected) roll the unit back and run it again from the start, at most
 *   MAX_ATTEMPTS times (units do no network I/O: docs/architecture.md).
 * - `afterCommit` hooks run once `COMMIT` answered: the unit's writes are then visible to every
 *   later statement on any connection.
 * - Before the first unit or read, the store starts (once): applies pending migrations
 *   (./migrations.ts, advisory-locked: instances starting together apply each migration once),
 *   loads the Pix provider connections (./connection-cache.ts) and subscribes to the notice
 *   channel. `ready()` waits for that start and answers false when it failed.
 * - Notices: repositories that write what other instances cache send `pg_notify` in the writing
 *   transaction (delivered on commit only); `onChange` hears them (./notices.ts).
 */
import type { SQL } from "bun";
import type { Logger } from "../../lib/logger";
import type { ChangeTopic, Repos, Store, Uow } from "../port";
import { ConnectionCache } from "./connection-cache";
import { CardConnectionCache } from "./card-connection-cache";
import { AccountCache } from "./account-cache";
import type { PgContext, PgShared } from "./context";
import { runPgMigrations, embeddedPgMigrations } from "./migrations";
import { pgSchemaState } from "./schema-version";
import { assertNotNewer } from "../port/schema-version";
import { Notices } from "./notices";
import { buildPgRepos, eagerPgRepos } from "./repos";
import { RequestLogWriter } from "./request-log";

/** Runs of one unit at most (the first and its retries) before a serialisation failure is thrown. */
const MAX_ATTEMPTS = 8;
/** SQLSTATEs after which running the unit again is safe: nothing of it was committed. */
const RETRYABLE = new Set(["40001", "40P01"]);

/** Options of `createPgStore`. */
export interface PgStoreOptions {
  logger?: Pick<Logger, "error" | "warn">;
  /** Apply pending migrations at start (default true; the test template is migrated already). */
  migrate?: boolean;
  /**
   * Subscribe to the notice channel (default true: one dedicated connection). Off only for a
   * store that is alone on its database (tests), where nobody else changes what it caches.
   */
  notices?: boolean;
  /**
   * This instance's name, the `application_name` its pool was opened with (./pool.ts). Only an
   * instance whose pool never closes every connection (idle timeout 0, the notice connection on)
   * may have one: another instance then treats the absence of its sessions in pg_stat_activity as
   * proof that it died, and takes its idempotency claims over at once (./claims.ts).
   */
  instanceName?: string;
}

/** The PostgreSQL store plus what only this adapter has (tests, benches, the CLI). */
export interface PgStore extends Store {
  readonly kind: "postgres";
  /** The pool (tests, benches, maintenance: never handed to the domain). */
  readonly sql: SQL;
  /** Closes the notice subscription and the pool. */
  close(): Promise<void>;
  /** This instance's name in pg_stat_activity, or null (see PgStoreOptions.instanceName). */
  readonly instanceName: string | null;
  /** Resolves once the store started (migrations, caches, notices); rejects with what stopped it. */
  readonly started: Promise<void>;
}

/** True for an error PostgreSQL raised for a unit that may simply run again. */
export function isRetryable(err: unknown): boolean {
  return typeof err === "object" && err !== null && RETRYABLE.has(String((err as { errno?: unknown }).errno));
}

/** A store over the pool `pool` (./pool.ts `openPgPool`). */
export function createPgStore(pool: SQL, opts: PgStoreOptions = {}): PgStore {
  const noticesOn = opts.notices ?? true;
  const shared: PgShared = {
    pool,
    logger: opts.logger,
    connections: new ConnectionCache(pool),
    cardConnections: new CardConnectionCache(pool),
    accounts: new AccountCache(noticesOn),
    requestLog: new RequestLogWriter(pool, opts.logger),
  };
  const notices = new Notices(pool, opts.logger);
  notices.on("accounts", () => shared.accounts.clear());
  notices.on(
    "pix_provider",
    () =>
      void shared.connections
        .load()
        .catch((err) => opts.logger?.error({ err }, "reloading Pix provider connections failed")),
  );
  notices.on(
    "card_provider",
    () =>
      void shared.cardConnections
        .load()
        .catch((err) => opts.logger?.error({ err }, "reloading card provider connections failed")),
  );
  let startedOk = false;
  const started = (async () => {
    if (opts.migrate ?? true) {
      // A database a newer Cofre migrated stops the start (exit 2, src/store/port/schema-version.ts).
      assertNotNewer(await pgSchemaState(pool));
      await runPgMigrations(pool);
    }
    // Subscribed before the first load: a change committed in between is heard, not lost.
    if (noticesOn) await notices.start();
    await shared.connections.load();
    await shared.cardConnections.load();
    startedOk = true;
  })();
  started.catch(() => {}); // reported by the first unit, read or ready() that waits on it

  const readCtx: PgContext = { sql: pool, inUnit: false, afterCommit: (fn) => fn(), shared };
  const read = gated(eagerPgRepos(readCtx), () => (startedOk ? null : started));

  async function runOnce<T>(fn: (uow: Uow) => Promise<T>, hooks: (() => void)[]): Promise<T> {
    return pool.begin(async (t) => {
      const ctx: PgContext = { sql: t as unknown as SQL, inUnit: true, afterCommit: (f) => void hooks.push(f), shared };
      const uow = buildPgRepos(ctx) as Uow;
      uow.afterCommit = ctx.afterCommit;
      return fn(uow);
    }) as Promise<T>;
  }

  async function tx<T>(fn: (uow: Uow) => Promise<T>): Promise<T> {
    if (!startedOk) await started;
    for (let attempt = 1; ; attempt++) {
      const hooks: (() => void)[] = [];
      let result: T;
      try {
        result = await runOnce(fn, hooks);
      } catch (err) {
        if (attempt < MAX_ATTEMPTS && isRetryable(err)) {
          // Jittered backoff: the units that collided should not collide again in lockstep.
          await Bun.sleep(Math.random() * 2 ** attempt);
          continue;
        }
        throw err;
      }
      for (const h of hooks)
        try {
          h();
        } catch (err) {
          opts.logger?.error({ err }, "afterCommit hook failed");
        }
      return result;
    }
  }

  const lastTag = embeddedPgMigrations().at(-1)!.folderMillis;
  return {
    kind: "postgres",
    sql: pool,
    // Only a store that keeps its notice session open may be judged alive by its sessions.
    instanceName: noticesOn ? (opts.instanceName ?? null) : null,
    started,
    tx,
    read,
    liveConnections: shared.connections,
    liveCardConnections: shared.cardConnections,
    onChange: (topic: ChangeTopic, fn) => notices.on(topic, fn),
    // A unit returns after its COMMIT: every returned unit is durable already, and a request
    // scope would add nothing (each unit runs on a pooled session of its own).
    durable: () => null,
    openRequestScope() {},
    async ready() {
      try {
        await started;
        const [row] = await pool`select max(created_at) as last from drizzle.__drizzle_migrations`;
        return Number(row?.last) >= lastTag;
      } catch {
        return false;
      }
    },
    async close() {
      await started.catch(() => {});
      await shared.requestLog.close();
      await notices.stop();
      await pool.close();
    },
  };
}

/**
 * The read side: each repository method first waits for the store's start (migrations, caches),
 * then runs on the pool. `gate()` answers null once started (no await on the hot path).
 */
function gated(repos: Repos, gate: () => Promise<void> | null): Repos {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, repo] of Object.entries(repos) as [string, Record<string, unknown>][]) {
    const wrapped: Record<string, unknown> = {};
    for (const key of Object.keys(repo)) {
      const fn = repo[key];
      if (typeof fn !== "function") continue;
      // The request log's append queues in memory and never waits or throws: gating it would hand
      // its caller a promise to drop. (`serve` starts listening only once the store started.)
      if (name === "requestLog" && key === "append") {
        wrapped[key] = fn.bind(repo);
        continue;
      }
      wrapped[key] = (...args: unknown[]) => {
        const wait = gate();
        return wait ? wait.then(() => fn.apply(repo, args)) : fn.apply(repo, args);
      };
    }
    out[name] = wrapped;
  }
  return out as unknown as Repos;
}

/** `store` as the PostgreSQL store it is; throws for another adapter. */
export function pgStoreOf(store: Store): PgStore {
  if (store.kind !== "postgres") throw new Error(`not a PostgreSQL store: ${store.kind}`);
  return store as PgStore;
}
