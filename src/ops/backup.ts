/**
 * `cofre backup` and `cofre restore` (extensions.md "Operations"), for the embedded SQLite
 * database. A backup is ONE tar archive (src/ops/archive.ts):
 * - `manifest.json` first: `{format: "cofre-backup", version: 1, created_at, cofre_version,
 *   schema (last migration tag of the database), secrets_included, files: [{name, bytes, sha256}]}`;
 * - `cofre.db`: a consistent snapshot by SQLite's own `VACUUM INTO` (src/store/sqlite/snapshot.ts), taken
 *   while `serve` may be writing; every write acknowledged before the backup began is in it;
 * - `request-log.db` the same way, when the data folder has one;
 * - `files/...`: the stored files (MED evidence, `<dataDir>/files`; written once by rename,
 *   never changed in place, so a hard link or copy of each is that file);
 * - `secrets.key` only when asked (`--include-secrets`).
 * Restore checks every size and SHA-256 against the manifest in a staging folder beside the
 * target, then moves the files into the (empty) target: a damaged archive leaves nothing behind.
 */
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import pkg from "../../package.json";
import { snapshotSqliteFile } from "../store/sqlite/snapshot";
import { knownSqliteMigrations, sqliteFileSchemaState } from "../store/sqlite/schema-version";
import { ArchiveError, extractArchive, gzipByName, writeArchive, type ArchiveEntry } from "./archive";

/** The manifest's `format` and `version`. */
export const BACKUP_FORMAT = "cofre-backup";
export const BACKUP_VERSION = 1;
const MANIFEST = "manifest.json";

/** One archived file in the manifest. */
export interface ManifestFile {
  name: string;
  bytes: number;
  /** SHA-256 of the file's bytes, lowercase hex. */
  sha256: string;
}

/** `manifest.json` of a backup. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  /** ISO 8601 UTC, when the backup began. */
  created_at: string;
  cofre_version: string;
  /** The last migration the backed-up database recorded (null: none). */
  schema: string | null;
  secrets_included: boolean;
  files: ManifestFile[];
}

/** What `takeBackup` needs. */
export interface BackupOptions {
  /** The data folder (`COFRE_DATA_DIR`) holding `cofre.db`. */
  dataDir: string;
  /** Root of stored files; default `<dataDir>/files` (src/domain/med/storage.ts). */
  storageDir?: string;
  /** The archive to write (replaced atomically when it exists). */
  to: string;
  /** Put `<dataDir>/secrets.key` in the archive. */
  includeSecrets: boolean;
  /** Clock for `created_at` (default: the system's). */
  now?: () => Date;
}

/** The result of `takeBackup`. */
export interface BackupResult {
  file: string;
  /** Size of the archive in bytes. */
  bytes: number;
  manifest: BackupManifest;
  /** Why `secrets.key` is absent although asked for (e.g. the key comes from COFRE_SECRETS_KEY); null otherwise. */
  secretsNote: string | null;
}

/** Raised for a backup or restore that cannot be done; `exitCode` is the CLI's (1 failure, 2 newer database). */
export class BackupError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** SHA-256 (hex) and size of the file at `path`, read as a stream. */
async function hashFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hasher = new Bun.CryptoHasher("sha256");
  let bytes = 0;
  for await (const chunk of Bun.file(path).stream()) {
    hasher.update(chunk);
    bytes += chunk.byteLength;
  }
  return { sha256: hasher.digest("hex"), bytes };
}

/** Every regular file under `root` (relative, `/`-separated), skipping the `.tmp` files of writes in flight. */
function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const e of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || e.name.endsWith(".tmp")) continue;
    out.push(relative(root, join(e.parentPath, e.name)).split(sep).join("/"));
  }
  return out.sort();
}

/**
 * Writes a backup of the SQLite instance in `opts.dataDir` (running or stopped) to `opts.to`.
 * Everything is staged in a temporary folder beside the archive, hashed, archived to a temporary
 * name and renamed into place, so `opts.to` is either the whole backup or untouched.
 * Throws BackupError when there is no database in the folder.
 */
export async function takeBackup(opts: BackupOptions): Promise<BackupResult> {
  const dataDir = resolve(opts.dataDir);
  const dbPath = join(dataDir, "cofre.db");
  if (!existsSync(dbPath)) throw new BackupError(`no database at ${dbPath} (set COFRE_DATA_DIR to the data folder)`);
  const to = resolve(opts.to);
  mkdirSync(dirname(to), { recursive: true });
  const createdAt = (opts.now ?? (() => new Date()))().toISOString();
  const stage = mkdtempSync(join(dirname(to), ".cofre-backup-"));
  try {
    const entries: ArchiveEntry[] = [];
    await snapshotSqliteFile(dbPath, join(stage, "cofre.db"));
    entries.push({ name: "cofre.db", path: join(stage, "cofre.db") });
    const logPath = join(dataDir, "request-log.db");
    if (existsSync(logPath)) {
      await snapshotSqliteFile(logPath, join(stage, "request-log.db"));
      entries.push({ name: "request-log.db", path: join(stage, "request-log.db") });
    }
    const filesRoot = resolve(opts.storageDir ?? join(dataDir, "files"));
    for (const rel of filesUnder(filesRoot)) {
      const target = join(stage, "files", rel);
      mkdirSync(dirname(target), { recursive: true });
      try {
        linkSync(join(filesRoot, rel), target);
      } catch {
        try {
          copyFileSync(join(filesRoot, rel), target);
        } catch (err) {
          // Deleted between the listing and now: it is not part of the instance any more.
          if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
          throw err;
        }
      }
      entries.push({ name: `files/${rel}`, path: target });
    }
    let secretsNote: string | null = null;
    if (opts.includeSecrets) {
      const keyPath = join(dataDir, "secrets.key");
      if (existsSync(keyPath)) {
        copyFileSync(keyPath, join(stage, "secrets.key"));
        entries.push({ name: "secrets.key", path: join(stage, "secrets.key") });
      } else
        secretsNote = `no ${keyPath} (the key comes from COFRE_SECRETS_KEY, or none was made): keep that key yourself`;
    }
    const files: ManifestFile[] = [];
    for (const e of entries) files.push({ name: e.name, ...(await hashFile(e.path)) });
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      created_at: createdAt,
      cofre_version: pkg.version,
      schema: lastMigrationOf(join(stage, "cofre.db")),
      secrets_included: entries.some((e) => e.name === "secrets.key"),
      files,
    };
    const partial = join(stage, basename(to));
    await writeArchive(
      partial,
      { name: MANIFEST, bytes: new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`) },
      entries,
      gzipByName(to),
    );
    renameSync(partial, to);
    return { file: to, bytes: statSync(to).size, manifest, secretsNote };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** The tag of the last migration recorded in the database file at `path` (null: none). */
function lastMigrationOf(path: string): string | null {
  const state = sqliteFileSchemaState(path);
  const known = sqliteKnownTags();
  const applied = known.slice(0, known.length - state.pending.length);
  return state.unknown.length ? `unknown (newer than ${known.at(-1)})` : (applied.at(-1) ?? null);
}

function sqliteKnownTags(): string[] {
  return knownSqliteMigrations().map((m) => m.tag);
}

/** What `restoreBackup` reports. */
export interface RestoreResult {
  dataDir: string;
  manifest: BackupManifest;
  /** Names of the files written under `dataDir`. */
  files: string[];
}

/** True when `dir` is missing or an empty folder. */
function emptyOrMissing(dir: string): boolean {
  if (!existsSync(dir)) return true;
  if (!statSync(dir).isDirectory()) return false;
  return readdirSync(dir).length === 0;
}

/**
 * Restores the backup archive `file` into `dataDir`, which must be missing or empty. Every file
 * is extracted into a staging folder beside `dataDir` and checked against the manifest (names,
 * sizes, SHA-256); a database written by a newer Cofre is refused (exit 2); only then are the
 * files moved into `dataDir`. On any failure nothing is left in `dataDir` (BackupError).
 * Ledger verification is the caller's (src/cli/backup.ts), on the restored folder.
 */
export async function restoreBackup(file: string, dataDirArg: string): Promise<RestoreResult> {
  const dataDir = resolve(dataDirArg);
  if (!existsSync(file)) throw new BackupError(`no backup at ${file}`);
  if (!emptyOrMissing(dataDir)) throw new BackupError(`${dataDir} is not empty: restore into an empty (or new) folder`);
  const parent = dirname(dataDir);
  mkdirSync(parent, { recursive: true });
  const stage = mkdtempSync(join(parent, ".cofre-restore-"));
  const created = !existsSync(dataDir);
  const moved: string[] = [];
  try {
    let names: string[];
    try {
      names = await extractArchive(file, stage);
    } catch (err) {
      throw new BackupError(
        `${file} is damaged or not a Cofre backup (${err instanceof ArchiveError ? err.message : (err as Error).message}); nothing was restored`,
      );
    }
    const manifest = readManifest(stage, names, file);
    await checkFiles(stage, names, manifest, file);
    const schema = sqliteFileSchemaState(join(stage, "cofre.db"));
    if (schema.unknown.length)
      throw new BackupError(
        `${file} holds a database written by a newer Cofre (${manifest.cofre_version}, schema ${manifest.schema}): restore it with that version`,
        2,
      );
    mkdirSync(dataDir, { recursive: true });
    for (const top of new Set(manifest.files.map((f) => f.name.split("/")[0]!))) {
      renameSync(join(stage, top), join(dataDir, top));
      moved.push(top);
    }
    return { dataDir, manifest, files: manifest.files.map((f) => f.name) };
  } catch (err) {
    for (const top of moved) rmSync(join(dataDir, top), { recursive: true, force: true });
    if (created) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Parses and checks `manifest.json` of an extracted archive. */
function readManifest(stage: string, names: string[], file: string): BackupManifest {
  const bad = (why: string) =>
    new BackupError(`${file} is damaged or not a Cofre backup (${why}); nothing was restored`);
  if (!names.includes(MANIFEST)) throw bad("no manifest.json");
  let m: BackupManifest;
  try {
    m = JSON.parse(readFileSync(join(stage, MANIFEST), "utf8"));
  } catch {
    throw bad("manifest.json is not JSON");
  }
  if (m?.format !== BACKUP_FORMAT || !Array.isArray(m.files)) throw bad("manifest.json is not a Cofre backup manifest");
  if (m.version !== BACKUP_VERSION)
    throw new BackupError(`${file} is a version ${m.version} backup; this Cofre reads version ${BACKUP_VERSION}`);
  if (!m.files.some((f) => f.name === "cofre.db")) throw bad("no cofre.db in the manifest");
  return m;
}

/** Every manifest file present with its size and SHA-256, and nothing else in the archive. */
async function checkFiles(stage: string, names: string[], m: BackupManifest, file: string): Promise<void> {
  const listed = new Set(m.files.map((f) => f.name));
  for (const n of names)
    if (n !== MANIFEST && !listed.has(n))
      throw new BackupError(`${file}: ${n} is not in the manifest; nothing was restored`);
  for (const f of m.files) {
    if (!names.includes(f.name))
      throw new BackupError(`${file} is damaged: ${f.name} is missing; nothing was restored`);
    const got = await hashFile(join(stage, f.name));
    if (got.bytes !== f.bytes || got.sha256 !== f.sha256)
      throw new BackupError(
        `${file} is damaged: checksum mismatch for ${f.name} (expected sha256 ${f.sha256}, got ${got.sha256}); nothing was restored`,
      );
  }
}

/** File names `cofre-backup-<UTC time>[-<why>].tar.gz` of scheduled and pre-migration backups. */
export const SCHEDULED_NAME = /^cofre-backup-\d{8}T\d{9}Z(-[a-z-]+)?\.tar\.gz$/;

/** The archive name for a backup taken at `at` (sorts by time), e.g. `cofre-backup-20261128T013800123Z.tar.gz`. */
export function scheduledName(at: Date, why?: string): string {
  const stamp = at.toISOString().replace(/[-:.]/g, "");
  return `cofre-backup-${stamp}${why ? `-${why}` : ""}.tar.gz`;
}

/** Staging folders (`.cofre-backup-*`) older than this are left by a process that died mid-backup (ms). */
const STALE_STAGE_MS = 24 * 3600 * 1000;

/**
 * Keeps the newest `keep` backups of `dir` (names matching SCHEDULED_NAME; other files are
 * never touched) and deletes the rest, and staging folders a killed backup left over a day ago.
 * Returns the backup names deleted. `keep` 0 keeps every backup.
 */
export function pruneBackups(dir: string, keep: number): string[] {
  if (!existsSync(dir)) return [];
  for (const n of readdirSync(dir))
    if (n.startsWith(".cofre-backup-") && Date.now() - statSync(join(dir, n)).mtimeMs > STALE_STAGE_MS)
      rmSync(join(dir, n), { recursive: true, force: true });
  if (keep <= 0) return [];
  const all = readdirSync(dir)
    .filter((n) => SCHEDULED_NAME.test(n))
    .sort();
  const gone = all.slice(0, Math.max(0, all.length - keep));
  for (const n of gone) unlinkSync(join(dir, n));
  return gone;
}
