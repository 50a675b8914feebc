/** `cofre migrate --dry-run`: where the configured database stands, read only (src/store/port/schema-version.ts). */
import { join } from "node:path";
import type { Config } from "../config";
import { sqliteFileSchemaState } from "../store/sqlite/schema-version";
import { openPgPool } from "../store/pg/pool";
import { pgSchemaState } from "../store/pg/schema-version";
import { assertNotNewer, type SchemaState } from "../store/port/schema-version";

/** Pending and unknown migrations of the database `config` names; creates and changes nothing. */
export async function pendingMigrations(config: Config): Promise<SchemaState> {
  if (!config.databaseUrl) return sqliteFileSchemaState(join(config.dataDir, "cofre.db"));
  const pool = openPgPool(config.databaseUrl, { max: 1 });
  try {
    return await pgSchemaState(pool);
  } finally {
    await pool.close();
  }
}

/**
 * Before `serve` or `migrate` builds anything: throws NewerDatabaseError (exit 2, one line) when a
 * newer Cofre migrated the database. A database that cannot be read here is left to the start
 * itself to report.
 */
export async function refuseNewerDatabase(config: Config): Promise<void> {
  let state: SchemaState;
  try {
    state = await pendingMigrations(config);
  } catch {
    return;
  }
  assertNotNewer(state);
}
