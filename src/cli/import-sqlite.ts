/**
 * `cofre import-sqlite DIR`: copies the embedded SQLite database of data folder DIR into the empty
 * PostgreSQL database of COFRE_DATABASE_URL (src/store/pg/import-sqlite.ts), for a merchant who
 * switches (docs/deploy.md "When to switch"). Stop the SQLite instance first.
 *
 * Before copying: the SQLite database is brought to this version's schema (as `serve` would), and
 * every active Pix provider connection's sealed secrets must open with the key the PostgreSQL
 * instances will use (COFRE_SECRETS_KEY, else `$COFRE_DATA_DIR/secrets.key`), since a copy they
 * cannot read would stop live Pix. After the copy, inside the same transaction: row counts, the
 * payment aggregates and the ledger check. Prints one JSON line `{"imported": true, "rows": {...}}`.
 * Exit 0 imported; 1 refused or failed (nothing written; the reason on stderr); 2 usage.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createDeps } from "../deps";
import { createLogger } from "../lib/logger";
import { verifyLedger } from "../domain/ledger/verify";
import { openConnection } from "../domain/pix-provider/secrets";
import { pgStoreOf } from "../store/pg";
import { importSqlite, ImportRefused } from "../store/pg/import-sqlite";
import { ledgerScan } from "../store/pg/ledger-scan";
import type { LedgerReader } from "../domain/ledger/unit";

const USAGE = "usage: cofre import-sqlite DIR   (COFRE_DATABASE_URL set: the empty PostgreSQL database to fill)\n";

export async function importSqliteCommand(args: string[]): Promise<number> {
  const [dir, ...extra] = args;
  if (!dir || extra.length > 0 || dir.startsWith("-")) {
    process.stderr.write(USAGE);
    return 2;
  }
  const logger = createLogger("warn", process.stderr as never);
  const target = createDeps({ logger });
  if (target.store.kind !== "postgres") {
    await target.store.close();
    process.stderr.write(`cofre: import-sqlite needs COFRE_DATABASE_URL (the PostgreSQL database to fill)\n${USAGE}`);
    return 2;
  }
  try {
    if (!existsSync(join(dir, "cofre.db"))) throw new ImportRefused(`${join(dir, "cofre.db")} does not exist`);
    await checkSource(dir, target.secretsKey);
    const pg = pgStoreOf(target.store);
    await pg.started;
    const rows = await importSqlite(pg.sql, dir, async (tx) => {
      const report = await verifyLedger({ ledger: { scan: () => ledgerScan(tx) } } as unknown as LedgerReader);
      return report.mismatches.map((m) => `ledger: ${m.message}`);
    });
    process.stdout.write(`${JSON.stringify({ imported: true, rows })}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof ImportRefused)) throw err;
    process.stderr.write(`cofre: nothing imported: ${err.message}\n`);
    return 1;
  } finally {
    await target.store.close();
  }
}

/**
 * Opens DIR's SQLite store (applying its pending migrations) and checks that the sealed secrets
 * of its active Pix connections open with `key`. Throws ImportRefused saying which key to set.
 */
async function checkSource(dir: string, key: Promise<CryptoKey>): Promise<void> {
  // A placeholder key: opening the store must not write a secrets.key into the merchant's folder.
  const placeholder = Buffer.alloc(32).toString("base64");
  const source = createDeps({
    dataDir: dir,
    config: { databaseUrl: null, secretsKey: placeholder, logLevel: "silent" },
  });
  try {
    for (const row of await source.store.read.pixProvider.listActive()) {
      try {
        await openConnection(await key, row);
      } catch {
        throw new ImportRefused(
          `the secrets of Pix connection ${row.id} do not open with this deployment's key: set COFRE_SECRETS_KEY to the key the SQLite instance used ` +
            `(its COFRE_SECRETS_KEY, or the contents of ${join(dir, "secrets.key")})`,
        );
      }
    }
  } finally {
    await source.store.close();
  }
}
