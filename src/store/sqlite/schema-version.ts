/**
 * The SQLite side of src/store/port/schema-version.ts: which embedded migrations a database has recorded
 * in drizzle's `__drizzle_migrations` (created_at = the journal time of each applied migration).
 */
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import journal from "../../../db/migrations/meta/_journal.json";
import { assertNotNewer, compareSchema, type KnownMigration, type SchemaState } from "../port/schema-version";
import type { Db } from "./client";

/** This executable's SQLite migrations, in journal order. */
export function knownSqliteMigrations(): KnownMigration[] {
  return journal.entries.map((e) => ({ tag: e.tag, folderMillis: e.when }));
}

/** Journal times recorded in the database behind `client` (empty when it has no migrations table). */
function recordedTimes(client: Database): number[] {
  const table = client
    .query("select name from sqlite_master where type = 'table' and name = '__drizzle_migrations'")
    .get();
  if (!table) return [];
  return (client.query("select created_at from __drizzle_migrations").all() as { created_at: number | string }[]).map(
    (r) => Number(r.created_at),
  );
}

/** Where the open database `client` stands against the embedded migrations. */
export function sqliteSchemaState(client: Database): SchemaState {
  return compareSchema(knownSqliteMigrations(), recordedTimes(client));
}

/**
 * The same for the database file at `path`, opened read-only (nothing is created or changed);
 * every migration is pending when the file does not exist.
 */
export function sqliteFileSchemaState(path: string): SchemaState {
  if (!existsSync(path)) return compareSchema(knownSqliteMigrations(), []);
  const client = new Database(path, { readonly: true });
  try {
    return sqliteSchemaState(client);
  } finally {
    client.close();
  }
}

/**
 * Throws NewerDatabaseError (src/store/port/schema-version.ts) when the open database records a
 * migration later than every embedded one: it was written by a newer Cofre. Run before migrating.
 */
export function assertSqliteNotNewer(db: Db): void {
  assertNotNewer(sqliteSchemaState(db.$client));
}
