/** Reads a `postgres://` URL (COFRE_DATABASE_URL): checked by the config, opened by src/store/pg/pool.ts. */

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
