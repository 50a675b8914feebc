/**
 * What every PostgreSQL repository is built on: the statement runner of a unit (or the pool) and the adapter's shared
 * state.
 */
import type { SQL } from "bun";
import type { Logger } from "../../lib/logger";
import type { ConnectionCache } from "./connection-cache";
import type { CardConnectionCache } from "./card-connection-cache";
import type { AccountCache } from "./account-cache";
import type { RequestLogWriter } from "./request-log";

/** State of one PostgreSQL store shared by all its repositories (never handed to the domain). */
export interface PgShared {
  /** The pool: reads outside a unit, LISTEN, maintenance. */
  pool: SQL;
  logger?: Pick<Logger, "error" | "warn">;
  /**
   * Every Pix provider connection in memory, for the provider registry's synchronous lookups (./connection-cache.ts).
   */
  connections: ConnectionCache;
  /** Every card provider connection in memory, for the registry's live card slot (./card-connection-cache.ts). */
  cardConnections: CardConnectionCache;
  /** What creates read of their account, per instance (./account-cache.ts). */
  accounts: AccountCache;
  /** The request-log queue, written in batches on the pool (./request-log.ts). */
  requestLog: RequestLogWriter;
}

/**
 * The connection a repository runs on. Inside a unit of work `sql` is the unit's transaction (so
 * every statement is part of it, READ COMMITTED: lock what you read before writing from it, with
 * `FOR UPDATE` or a conditional `UPDATE ... WHERE status = $from`); outside one it is the pool.
 * Use tagged templates (`await ctx.sql\`select ... where id = ${id}\``): Bun.SQL prepares and caches
 * them per connection. Map results with ./map.ts (`rowsOf`, `rowOf`, `numberOf`).
 */
export interface PgContext {
  readonly sql: SQL;
  /** True inside a unit of work. */
  readonly inUnit: boolean;
  /** Runs `fn` after the unit commits (never after a rollback); outside a unit, at once. */
  afterCommit(fn: () => void): void;
  readonly shared: PgShared;
}
