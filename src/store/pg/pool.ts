/**
 * Opens the Bun.SQL pool of a `postgres://` URL (COFRE_DATABASE_URL). Every part the URL names
 * is passed explicitly: Bun.SQL lets the libpq variables (PGDATABASE, PGUSER, PGHOST, ...)
 * override the URL (measured), and a shell's PGDATABASE must never point Cofre (or `cofre
 * migrate`) at another database. Parts the URL leaves out still come from those variables.
 */
import { SQL } from "bun";

/** Pool options: connections at most (default 20) and seconds an idle connection is kept (default 0 = forever). */
export interface PgPoolOptions {
  max?: number;
  idleTimeout?: number;
  /**
   * `application_name` of every connection: the instance's name (src/store/pg/claims.ts tells a
   * live instance from a dead one by its sessions in pg_stat_activity). At most 63 bytes.
   */
  applicationName?: string;
}

/** Parses a `postgres://` or `postgresql://` URL; throws an Error naming the problem (never echoing a password). */
export function parsePgUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error("COFRE_DATABASE_URL is not a URL (expected postgres://user:password@host:5432/database)");
  }
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:")
    throw new Error(`COFRE_DATABASE_URL must start with postgres:// or postgresql://, got ${u.protocol}//`);
  if (u.pathname.replace(/^\//, "") === "")
    throw new Error("COFRE_DATABASE_URL names no database (postgres://user@host:5432/<database>)");
  return u;
}

/** The database name in `url` (decoded). */
export function pgDatabaseName(url: string): string {
  return decodeURIComponent(parsePgUrl(url).pathname.replace(/^\//, ""));
}

/** A pool on `url` (connects lazily, on first query). */
export function openPgPool(url: string, opts: PgPoolOptions = {}): SQL {
  const u = parsePgUrl(url);
  const explicit: Record<string, unknown> = { database: pgDatabaseName(url) };
  if (u.hostname) explicit.hostname = u.hostname.replace(/^\[|\]$/g, "");
  if (u.port) explicit.port = Number(u.port);
  if (u.username) explicit.username = decodeURIComponent(u.username);
  if (u.password) explicit.password = decodeURIComponent(u.password);
  const connection = opts.applicationName ? { application_name: opts.applicationName } : undefined;
  return new SQL({ url, ...explicit, max: opts.max ?? 20, idleTimeout: opts.idleTimeout ?? 0, connection });
}
