/**
 * Opens the Bun.SQL pool of a `postgres://` URL (COFRE_DATABASE_URL). Every part the URL names
 * is passed explicitly: Bun.SQL lets the libpq variables (PGDATABASE, PGUSER, PGHOST, ...)
 * override the URL (measured), and a shell's PGDATABASE must never point Cofre (or `cofre
 * migrate`) at another database. Parts the URL leaves out still come from those variables.
 */
import { SQL } from "bun";
import { parsePgUrl, pgDatabaseName } from "../../lib/pg-url";

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
