/**
 * `cofre backup --to FILE [--include-secrets]` and `cofre restore FILE --data-dir DIR`
 * (extensions.md "Operations"; the archive: src/ops/backup.ts).
 * - backup: the SQLite instance of COFRE_DATA_DIR, running or stopped; prints one JSON line
 *   `{backup, bytes, files, secrets_included, schema, created_at}`. On PostgreSQL
 *   (COFRE_DATABASE_URL set) it says to use pg_dump and exits 2.
 * - restore: refuses a non-empty DIR and a damaged archive (exit 1, nothing written), a database
 *   of a newer Cofre (exit 2); then verifies the ledger and prints one JSON line
 *   `{restored, files, secrets_included, created_at, schema, ledger}`; exit 1 when the ledger
 *   disagrees.
 * Bad arguments: usage on stderr, exit 2.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { BackupError, restoreBackup, takeBackup } from "../ops/backup";
import { verifyRestoredLedger } from "../ops/verify-restored";

const BACKUP_USAGE =
  "usage: cofre backup --to FILE [--include-secrets]   (FILE ending in .gz or .tgz is gzip-compressed)\n";
const RESTORE_USAGE = "usage: cofre restore FILE --data-dir DIR\n";

function parse(args: string[], options: NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>["options"]>) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch {
    return null;
  }
}

/** `cofre backup`. */
export async function backupCommand(args: string[]): Promise<number> {
  const parsed = parse(args, { to: { type: "string" }, "include-secrets": { type: "boolean" } });
  const to = parsed?.values.to;
  if (!parsed || typeof to !== "string" || !to || parsed.positionals.length) {
    process.stderr.write(BACKUP_USAGE);
    return 2;
  }
  const config = loadConfig();
  if (config.databaseUrl) {
    process.stderr.write(
      'cofre backup: this instance uses PostgreSQL (COFRE_DATABASE_URL); back it up with pg_dump (docs/deploy.md, "Backup and restore")\n',
    );
    return 2;
  }
  try {
    const r = await takeBackup({
      dataDir: config.dataDir,
      storageDir: config.storageDir,
      to,
      includeSecrets: parsed.values["include-secrets"] === true,
    });
    if (r.secretsNote) process.stderr.write(`cofre backup: --include-secrets: ${r.secretsNote}\n`);
    const m = r.manifest;
    process.stdout.write(
      `${JSON.stringify({
        backup: r.file,
        bytes: r.bytes,
        files: m.files.length,
        secrets_included: m.secrets_included,
        schema: m.schema,
        created_at: m.created_at,
      })}\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      process.stderr.write(`cofre backup: ${err.message}\n`);
      return err.exitCode;
    }
    throw err;
  }
}

/** `cofre restore`. */
export async function restoreCommand(args: string[]): Promise<number> {
  const parsed = parse(args, { "data-dir": { type: "string" } });
  const dir = parsed?.values["data-dir"];
  if (!parsed || typeof dir !== "string" || !dir || parsed.positionals.length !== 1) {
    process.stderr.write(RESTORE_USAGE);
    return 2;
  }
  const file = parsed.positionals[0]!;
  let restored;
  try {
    restored = await restoreBackup(file, dir);
  } catch (err) {
    if (err instanceof BackupError) {
      process.stderr.write(`cofre restore: ${err.message}\n`);
      return err.exitCode;
    }
    throw err;
  }
  const m = restored.manifest;
  if (!m.secrets_included)
    process.stderr.write(
      `cofre restore: the backup holds no secrets.key: put the original one in ${restored.dataDir} (or set COFRE_SECRETS_KEY) before serving, or sealed provider credentials cannot be opened\n`,
    );
  const ledger = await verifyRestoredLedger(restored.dataDir);
  process.stdout.write(
    `${JSON.stringify({
      restored: restored.dataDir,
      files: restored.files.length,
      secrets_included: m.secrets_included,
      created_at: m.created_at,
      schema: m.schema,
      ledger,
    })}\n`,
  );
  if (!ledger.ok)
    process.stderr.write('cofre restore: ledger verify found balances that disagree with the journal (see "ledger")\n');
  return ledger.ok ? 0 : 1;
}
