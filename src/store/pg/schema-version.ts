/**
 * The PostgreSQL side of src/store/port/schema-version.ts: which embedded migrations a database has
 * recorded in drizzle's `drizzle.__drizzle_migrations` (created_at = journal time).
 */
import type { SQL } from "bun";
import { compareSchema, type SchemaState } from "../port/schema-version";
import { embeddedPgMigrations } from "./migrations";

/** Where the database behind `sql` stands against the embedded PostgreSQL migrations (reads only). */
export async function pgSchemaState(sql: SQL): Promise<SchemaState> {
  const [exists] = await sql`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`;
  const recorded = exists?.ok
    ? (await sql`select created_at from drizzle.__drizzle_migrations`).map((r: { created_at: string | number }) =>
        Number(r.created_at),
      )
    : [];
  return compareSchema(
    embeddedPgMigrations().map((m) => ({ tag: m.tag, folderMillis: m.folderMillis })),
    recorded,
  );
}
