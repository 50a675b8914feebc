/**
 * `cofre migrate [--dry-run]` (extensions.md "Command line"): applies pending migrations and
 * prints `{migrated: true, database[, data_dir]}`; `--dry-run` lists them and changes nothing.
 */
import { createDeps } from "../deps";
import { pgStoreOf } from "../store/pg";
import { loadConfig, type Config } from "../config";
import { NewerDatabaseError } from "../store/port/schema-version";
import { backupBeforeMigrating } from "../ops/schedule";
import { createLogger } from "../lib/logger";
import { pendingMigrations, refuseNewerDatabase } from "../ops/pending";

const USAGE = "usage: cofre migrate [--dry-run]\n";

/**
 * Applies every pending migration (after the pre-migration backup) and exits 0; extra arguments:
 * usage, exit 2. A database of a newer Cofre throws NewerDatabaseError (exit 2 by the dispatcher).
 */
export async function migrateCommand(args: string[]): Promise<number> {
  if (args.includes("--dry-run")) return await migrateDryRun(args);
  if (args.length) {
    process.stderr.write(USAGE);
    return 2;
  }
  const early = loadConfig();
  await refuseNewerDatabase(early);
  await backupBeforeMigrating(early, createLogger(early.logLevel, process.stderr as never));
  const deps = createDeps();
  if (deps.store.kind === "postgres") await pgStoreOf(deps.store).started;
  await deps.store.close();
  console.log(
    JSON.stringify({
      migrated: true,
      database: deps.store.kind,
      ...(deps.store.kind === "sqlite" ? { data_dir: deps.config.dataDir } : {}),
    }),
  );
  return 0;
}

/**
 * `cofre migrate --dry-run`: prints one JSON line `{dry_run: true, database, pending: [tags]}`
 * and changes nothing (a missing SQLite file is not created); a database of a newer Cofre: exit 2.
 */
async function migrateDryRun(args: string[]): Promise<number> {
  if (args.length !== 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config: Config = loadConfig();
  const state = await pendingMigrations(config);
  if (state.unknown.length) throw new NewerDatabaseError(state.unknown);
  console.log(
    JSON.stringify({ dry_run: true, database: config.databaseUrl ? "postgres" : "sqlite", pending: state.pending }),
  );
  return 0;
}
