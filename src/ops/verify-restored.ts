/**
 * `ledger verify` over a restored data folder (extensions.md "Operations": restore ends with it),
 * without writing a key or migrating the folder: a backup from an older Cofre must stay exactly as
 * it was (the executable that made it may be the one that serves it after a rollback), so its
 * migrations are applied to a temporary copy and the ledger is verified there.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../store/sqlite/client";
import { runMigrations } from "../store/sqlite/migrations";
import { sqliteFileSchemaState } from "../store/sqlite/schema-version";
import type { LedgerReport } from "../domain/ledger";
import { verifyLedger } from "../domain/ledger/verify";
import { createSqliteStore } from "../store/sqlite";

/** Verifies the ledger of `<dataDir>/cofre.db` (src/domain/ledger/verify.ts) and returns the report. */
export async function verifyRestoredLedger(dataDir: string): Promise<LedgerReport & { migrated_copy: boolean }> {
  const pending = sqliteFileSchemaState(join(dataDir, "cofre.db")).pending.length > 0;
  let dir = dataDir;
  if (pending) {
    dir = mkdtempSync(join(tmpdir(), "cofre-verify-"));
    copyFileSync(join(dataDir, "cofre.db"), join(dir, "cofre.db")); // a restored file, not a live one
  }
  try {
    const db = openDb(dir);
    if (pending) runMigrations(db);
    const store = createSqliteStore(db);
    try {
      return { ...(await verifyLedger(store.read)), migrated_copy: pending };
    } finally {
      await store.close();
    }
  } finally {
    if (pending) rmSync(dir, { recursive: true, force: true });
  }
}
