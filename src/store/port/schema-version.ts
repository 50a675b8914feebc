/**
 * What a database says about the Cofre that wrote it (extensions.md "Operations": `serve` refuses
 * a database written by a newer Cofre with exit 2; `cofre migrate --dry-run` lists what is
 * pending). Backend-neutral: each adapter reads its own migrations table (SQLite:
 * src/store/sqlite/schema-version.ts, PostgreSQL: src/store/pg/schema-version.ts) and hands the recorded
 * journal times to `compareSchema`. It sits in the storage port so that the adapters and src/ops
 * (`migrate --dry-run`, backups, the start check) share it without importing upward.
 */

/** One migration this executable embeds: its journal tag and journal time (epoch ms). */
export interface KnownMigration {
  tag: string;
  folderMillis: number;
}

/** Where a database stands against this executable's migrations. */
export interface SchemaState {
  /** Embedded migrations the database has not recorded (drizzle's rule: journal time after its last). */
  pending: string[];
  /** Journal times (epoch ms) the database recorded that are later than every embedded migration. */
  unknown: number[];
}

/**
 * Thrown when the database records a migration this executable does not know: it was written by
 * a newer Cofre, and running an older one over it could corrupt data. The CLI exits 2 on it.
 */
export class NewerDatabaseError extends Error {
  constructor(readonly unknown: number[]) {
    const newest = new Date(Math.max(...unknown)).toISOString();
    super(
      `the database was written by a newer Cofre (${unknown.length} migration(s) this version does not know, the newest from ${newest}); ` +
        "run that version, or restore a backup taken before the upgrade",
    );
  }
}

/**
 * Compares the journal times a database recorded (`recorded`, epoch ms, any order; empty for a
 * fresh database) with `known` (journal order). Pending follows drizzle's migrators: an embedded
 * migration is applied when its time is after the last recorded one.
 */
export function compareSchema(known: KnownMigration[], recorded: number[]): SchemaState {
  const last = recorded.length ? Math.max(...recorded) : -Infinity;
  const newestKnown = known.length ? Math.max(...known.map((m) => m.folderMillis)) : -Infinity;
  return {
    pending: known.filter((m) => m.folderMillis > last).map((m) => m.tag),
    unknown: recorded.filter((t) => t > newestKnown).sort((a, b) => a - b),
  };
}

/** Throws NewerDatabaseError when `state` has unknown migrations. */
export function assertNotNewer(state: SchemaState): void {
  if (state.unknown.length) throw new NewerDatabaseError(state.unknown);
}
