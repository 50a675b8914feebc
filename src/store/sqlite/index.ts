/**
 * The SQLite adapter of the storage port (src/store/port.ts): today's measured machinery behind
 * `Store`. One connection; units of work take the connection's UnitLock (src/store/sqlite/lock.ts)
 * and run as `BEGIN IMMEDIATE`, or as a SAVEPOINT of the turn's group when group commit is on
 * (src/store/sqlite/group-commit.ts, `serve`). The port's durability words map onto it:
 * `store.durable()` is the commit of the turn's open group (what the HTTP layer awaits before
 * acknowledging), and `store.openRequestScope()` opens that group as an API request arrives.
 */
import type { Db } from "./client";
import { committed, enterGroup, flushGroupCommit, holdGroupWhile } from "./group-commit";
import type { Logger } from "../../lib/logger";
import type { Repos, Store, Uow } from "../port";
import { sqliteContext, type SqliteContext } from "./context";
import { UnitLock } from "./lock";
import { schemaCurrent } from "./health";
import { accountsRepo } from "./accounts";
import { apiKeysRepo } from "./api-keys";
import { authRepo } from "./auth";
import { auditRepo } from "./audit";
import { chargesRepo } from "./charges";
import { eventsRepo } from "./events";
import { idempotencyRepo } from "./idempotency";
import { jobsRepo } from "./jobs";
import { ledgerRepo } from "./ledger";
import { medRepo } from "./med";
import { paymentsRepo } from "./payments";
import { payoutDestinationsRepo, payoutsRepo } from "./payouts";
import { pixProviderRepo } from "./pix-provider";
import { reconciliationRepo } from "./reconciliation";
import { refundsRepo } from "./refunds";
import { requestLogRepo } from "./request-log";
import { statsRepo } from "./stats";
import { webhooksRepo } from "./webhooks";
import { liveConnectionReads } from "./pix-provider";
import { cardProviderRepo, liveCardConnectionReads } from "./card-provider";

/** Options of `createSqliteStore`. */
export interface SqliteStoreOptions {
  /** Hears what an afterCommit hook throws (default: swallowed). */
  logger?: Pick<Logger, "error">;
  /** How long a unit or read waits for the connection before failing (default 3 s; see lock.ts). */
  lockWaitMs?: number;
}

/** The SQLite store plus what only this adapter has (tests, the CLI and `serve`'s wiring use it). */
export interface SqliteStore extends Store {
  readonly kind: "sqlite";
  /** The adapter's connection context (never handed to the domain). */
  readonly ctx: SqliteContext;
}

/** Builds every repository on `ctx`. */
function buildRepos(ctx: SqliteContext): Repos {
  return {
    accounts: accountsRepo(ctx),
    apiKeys: apiKeysRepo(ctx),
    auth: authRepo(ctx),
    audit: auditRepo(ctx),
    cardProvider: cardProviderRepo(ctx),
    charges: chargesRepo(ctx),
    events: eventsRepo(ctx),
    idempotency: idempotencyRepo(ctx),
    jobs: jobsRepo(ctx),
    ledger: ledgerRepo(ctx),
    med: medRepo(ctx),
    payments: paymentsRepo(ctx),
    payoutDestinations: payoutDestinationsRepo(ctx),
    payouts: payoutsRepo(ctx),
    pixProvider: pixProviderRepo(ctx),
    reconciliation: reconciliationRepo(ctx),
    refunds: refundsRepo(ctx),
    requestLog: requestLogRepo(ctx),
    stats: statsRepo(ctx),
    webhooks: webhooksRepo(ctx),
  };
}

/** A store over the open database `db` (src/store/sqlite/client.ts `openDb`, migrations applied). */
export function createSqliteStore(db: Db, opts: SqliteStoreOptions = {}): SqliteStore {
  const ctx = sqliteContext(db);
  const client = ctx.client;
  const lock = new UnitLock(opts.lockWaitMs);
  const repos = buildRepos(ctx);
  holdGroupWhile(client, () => lock.busy);
  // Each unit is an object inheriting the repositories (plain, no prototype chain beyond them) plus its own
  // afterCommit.
  const base = Object.assign(Object.create(null) as object, repos);
  const st = (sql: string) => client.prepare(sql);
  const begin = st("BEGIN IMMEDIATE");
  const commit = st("COMMIT");
  const savepoint = st("SAVEPOINT cofre_uow");
  const release = st("RELEASE cofre_uow");
  const rollbackTo = st("ROLLBACK TO cofre_uow");

  async function runUnit<T>(fn: (uow: Uow) => Promise<T>): Promise<T> {
    const hooks: (() => void)[] = [];
    const uow = Object.create(base) as Uow;
    uow.afterCommit = (f) => void hooks.push(f);
    enterGroup(client);
    const nested = client.inTransaction; // inside the turn's group: a savepoint of it
    if (nested) savepoint.run();
    else begin.run();
    let result: T;
    try {
      result = await fn(uow);
      if (nested) release.run();
      else commit.run();
    } catch (err) {
      if (client.inTransaction) {
        if (nested) {
          rollbackTo.run();
          release.run();
        } else client.run("ROLLBACK");
      }
      throw err;
    }
    // On this single connection the unit's writes are visible to every later statement once
    // released into the group (the group's COMMIT only makes them durable), so hooks run now.
    for (const h of hooks)
      try {
        h();
      } catch (err) {
        opts.logger?.error({ err }, "afterCommit hook failed");
      }
    return result;
  }

  async function tx<T>(fn: (uow: Uow) => Promise<T>): Promise<T> {
    const wait = lock.acquire();
    if (wait) await wait;
    try {
      return await runUnit(fn);
    } finally {
      lock.release();
    }
  }

  return {
    kind: "sqlite",
    ctx,
    tx,
    liveConnections: liveConnectionReads(ctx),
    liveCardConnections: liveCardConnectionReads(ctx),
    // One process owns a SQLite database: nobody else changes it behind this store's back.
    onChange() {},
    read: lockedRepos(repos, lock),
    // Under group commit (serve) a unit returns once released into the turn's group; it is durable
    // at the group's COMMIT at the end of the turn, which `durable()` hands out (null: no group open).
    durable: () => committed(client),
    // The request scope is the turn's group transaction, opened by the first API request of the
    // turn: inside it a read skips SQLite's per-statement WAL read lock (a few syscalls), and the
    // turn's units commit together. No-op when group commit is off or a transaction is open.
    openRequestScope: () => enterGroup(client),
    ready: async () => schemaCurrent(client),
    close() {
      flushGroupCommit(client);
      client.close();
    },
  };
}

/**
 * The read side: every method of every repository takes the UnitLock for its duration, so a read
 * never sees half a unit of work (units may span several awaits).
 */
function lockedRepos(repos: Repos, lock: UnitLock): Repos {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, repo] of Object.entries(repos) as [string, Record<string, unknown>][]) {
    const wrapped: Record<string, unknown> = {};
    for (const key of methodNames(repo)) {
      const fn = (repo[key] as (...a: unknown[]) => unknown).bind(repo);
      wrapped[key] = (...args: unknown[]) => {
        const wait = lock.acquire();
        const run = () => {
          let r: unknown;
          try {
            r = fn(...args);
          } catch (err) {
            lock.release();
            throw err;
          }
          if (r instanceof Promise) return r.finally(() => lock.release());
          lock.release();
          return r;
        };
        return wait ? wait.then(run) : run();
      };
    }
    out[name] = wrapped;
  }
  return out as unknown as Repos;
}

/** Own and prototype method names of a repository object (plain objects or class instances). */
function methodNames(o: object): string[] {
  const names = new Set<string>();
  for (let p: object | null = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p))
    for (const k of Object.getOwnPropertyNames(p))
      if (k !== "constructor" && typeof (o as Record<string, unknown>)[k] === "function") names.add(k);
  return [...names];
}

/**
 * The drizzle handle under a SQLite store, for tests, benches and the CLI's maintenance commands
 * (never the domain: it reads and writes through the port). Throws for another adapter.
 */
export function sqliteDbOf(store: Store): Db {
  if (store.kind !== "sqlite" || !("ctx" in store)) throw new Error(`not a SQLite store: ${store.kind}`);
  return (store as SqliteStore).ctx.db;
}
