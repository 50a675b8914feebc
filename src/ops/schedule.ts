/**
 * Scheduled backups while `serve` runs, and the backup before migrations (extensions.md
 * "Operations"): COFRE_BACKUP_DIR, COFRE_BACKUP_INTERVAL, COFRE_BACKUP_KEEP (src/config.ts).
 * SQLite only: a PostgreSQL deployment backs up with pg_dump (docs/deploy.md). A timer in the
 * process (one SQLite process owns its database): the next backup is planned when the last one
 * ends, so two never overlap. Scheduled archives never hold `secrets.key`.
 */
import { join } from "node:path";
import type { Config } from "../config";
import type { Logger } from "../lib/logger";
import { sqliteFileSchemaState, knownSqliteMigrations } from "../store/sqlite/schema-version";
import { assertNotNewer } from "../store/port/schema-version";
import type { BackupResult } from "./backup";

type Log = Pick<Logger, "info" | "warn" | "error">;

/**
 * Takes one backup into `config.backupDir` named for now (`why` is added to the name), then keeps the newest
 * `backupKeep`.
 */
export async function backupIntoDir(config: Config, why?: string): Promise<BackupResult & { pruned: string[] }> {
  const dir = config.backupDir!;
  // Loaded on first use: `serve` without backups never loads the archive code.
  const { pruneBackups, scheduledName, takeBackup } = await import("./backup");
  const result = await takeBackup({
    dataDir: config.dataDir,
    storageDir: config.storageDir,
    to: join(dir, scheduledName(new Date(), why)),
    includeSecrets: false,
  });
  return { ...result, pruned: pruneBackups(dir, config.backupKeep) };
}

/**
 * Before `serve` or `migrate` opens the SQLite database: refuses a database a newer Cofre wrote
 * (NewerDatabaseError, exit 2), and, when COFRE_BACKUP_DIR is set and migrations are pending on a
 * database that has some already (a fresh one has nothing to lose), takes a backup first
 * (`...-pre-migration.tar.gz`). A backup that fails stops the start: migrating without the
 * asked-for backup is what the operator wanted to avoid.
 */
export async function backupBeforeMigrating(config: Config, log: Log): Promise<void> {
  if (config.databaseUrl || config.dataDir === ":memory:") return;
  const state = sqliteFileSchemaState(join(config.dataDir, "cofre.db"));
  assertNotNewer(state);
  if (!config.backupDir || state.pending.length === 0 || state.pending.length === knownSqliteMigrations().length)
    return;
  const r = await backupIntoDir(config, "pre-migration");
  log.info(
    { backup: r.file, bytes: r.bytes, pending: state.pending, pruned: r.pruned },
    `backup written before ${state.pending.length} migration(s)`,
  );
}

/** A running schedule; `stop` cancels the next backup and resolves once one in progress has finished. */
export interface BackupSchedule {
  stop(): Promise<void>;
}

/**
 * Starts scheduled backups for `serve` when COFRE_BACKUP_DIR and an interval are set (SQLite);
 * on PostgreSQL logs once that backups are pg_dump's. Each backup logs `backup written` (info) or
 * `scheduled backup failed` (error) and serving goes on either way.
 */
export function startBackupSchedule(config: Config, log: Log): BackupSchedule | null {
  if (!config.backupDir || config.backupIntervalMs === 0) return null;
  if (config.databaseUrl) {
    log.warn(
      { backup_dir: config.backupDir },
      "COFRE_BACKUP_DIR is for the embedded SQLite database; back up PostgreSQL with pg_dump (docs/deploy.md)",
    );
    return null;
  }
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let running: Promise<void> | null = null;
  const plan = () => {
    if (!stopped)
      timer = setTimeout(() => void (running = tick().finally(() => (running = null))), config.backupIntervalMs);
  };
  const tick = async () => {
    try {
      const r = await backupIntoDir(config);
      log.info({ backup: r.file, bytes: r.bytes, pruned: r.pruned }, "backup written");
    } catch (err) {
      log.error({ err, backup_dir: config.backupDir }, "scheduled backup failed");
    }
    plan();
  };
  plan();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
