// sqlite-only: scheduled and pre-migration backups are of the embedded SQLite database (PostgreSQL: pg_dump)
/**
 * Backups on a schedule and before migrations (extensions.md "Operations": COFRE_BACKUP_DIR,
 * COFRE_BACKUP_INTERVAL, COFRE_BACKUP_KEEP), and their retention.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { ConfigError, loadConfig } from "../../src/config";
import { knownSqliteMigrations } from "../../src/store/sqlite/schema-version";
import { pruneBackups, SCHEDULED_NAME } from "../../src/ops/backup";
import { serveWithTestKey } from "../support/serve";
import { cofre, ROOT } from "./support";

/** Writes a database with every embedded migration but the last applied, at argv[1]. */
const OLDER_DB = `
import { openDb } from "./src/store/sqlite/client";
import { embeddedMigrations } from "./src/store/sqlite/migrations";
const db = openDb(process.argv.at(-1));
db.dialect.migrate(embeddedMigrations().slice(0, -1), db.session, { migrationsFolder: "" });
db.$client.close();
`;

const work = mkdtempSync(join(tmpdir(), "cofre-schedule-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("scheduled backups while serving", () => {
  test("serve writes a backup every COFRE_BACKUP_INTERVAL and keeps the newest COFRE_BACKUP_KEEP", async () => {
    const dir = join(work, "scheduled");
    const s = await serveWithTestKey({ COFRE_BACKUP_DIR: dir, COFRE_BACKUP_INTERVAL: "1s", COFRE_BACKUP_KEEP: "2" });
    try {
      const written = () => s.server.lines().filter((l) => l.msg === "backup written");
      for (let i = 0; i < 300 && written().length < 3; i++) await Bun.sleep(50);
      expect(written().length).toBeGreaterThanOrEqual(3);
      expect(await s.server.stop()).toBe(0); // waits for a backup in progress
      const logged = written().map((l) => basename(l.backup as string));
      expect(logged.every((n) => SCHEDULED_NAME.test(n))).toBe(true);
      expect(readdirSync(dir).sort()).toEqual(logged.slice(-2).sort());
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe("the backup before migrations", () => {
  test("cofre migrate backs up a database with pending migrations first, and that backup restores to the older schema", async () => {
    const data = join(work, "older");
    const backups = join(work, "pre");
    // A database as the previous release left it: every migration but the last applied (in a child
    // process: a connection closed here lingers until its statements are collected).
    const older = Bun.spawnSync(["bun", "-e", OLDER_DB, data], { cwd: ROOT });
    expect(older.stderr.toString()).toBe("");
    const tags = knownSqliteMigrations().map((m) => m.tag);

    const m = await cofre(["migrate"], { COFRE_DATA_DIR: data, COFRE_BACKUP_DIR: backups, LOG_LEVEL: "info" });
    expect(m.code).toBe(0);
    expect(JSON.parse(m.stdout).migrated).toBe(true);
    const files = readdirSync(backups);
    expect(files.length).toBe(1);
    expect(files[0]).toMatch(/^cofre-backup-\d{8}T\d{9}Z-pre-migration\.tar\.gz$/);
    expect(JSON.parse(m.stderr.trim()).pending).toEqual([tags.at(-1)]);
    expect((await cofre(["migrate", "--dry-run"], { COFRE_DATA_DIR: data })).stdout).toBe(
      `${JSON.stringify({ dry_run: true, database: "sqlite", pending: [] })}\n`,
    );

    const restored = join(work, "older-restored");
    const r = await cofre(["restore", join(backups, files[0]!), "--data-dir", restored], {});
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.schema).toBe(tags.at(-2));
    expect(report.ledger).toEqual({ ok: true, checked: 0, mismatches: [], migrated_copy: true });
    // Restore verified a migrated copy: the folder itself is as the older release left it.
    expect(JSON.parse((await cofre(["migrate", "--dry-run"], { COFRE_DATA_DIR: restored })).stdout).pending).toEqual([
      tags.at(-1),
    ]);
  }, 60_000);

  test("a new database (nothing to lose) is migrated without a backup", async () => {
    const backups = join(work, "pre-fresh");
    const m = await cofre(["migrate"], { COFRE_DATA_DIR: join(work, "fresh"), COFRE_BACKUP_DIR: backups });
    expect(m.code).toBe(0);
    expect(readdirSync(work).includes("pre-fresh") ? readdirSync(backups) : []).toEqual([]);
  }, 30_000);
});

describe("retention", () => {
  test("keeps the newest N backups by their time-stamped names and never touches other files", () => {
    const dir = join(work, "retention");
    mkdirSync(dir);
    const names = [
      "cofre-backup-20260101T000000000Z.tar.gz",
      "cofre-backup-20260102T000000000Z-pre-migration.tar.gz",
      "cofre-backup-20260103T000000000Z.tar.gz",
      "notes.txt",
      "manual.tar.gz",
    ];
    for (const n of names) writeFileSync(join(dir, n), "x");
    expect(pruneBackups(dir, 2)).toEqual(["cofre-backup-20260101T000000000Z.tar.gz"]);
    expect(readdirSync(dir).sort()).toEqual(names.slice(1).sort());
  });
});

describe("backup configuration", () => {
  test("COFRE_BACKUP_INTERVAL takes a number and a unit, 0 turns the schedule off, and it defaults to a day", () => {
    const ms = (v?: string) => loadConfig({ COFRE_BACKUP_INTERVAL: v }).backupIntervalMs;
    expect([ms("90s"), ms("30m"), ms("6h"), ms("1d"), ms("0"), ms(undefined)]).toEqual([
      90_000, 1_800_000, 21_600_000, 86_400_000, 0, 86_400_000,
    ]);
    expect(loadConfig({}).backupKeep).toBe(7);
    expect(loadConfig({}).backupDir).toBe(null);
  });

  test("an interval without a unit or a keep of 0 names the variable", () => {
    expect(() => loadConfig({ COFRE_BACKUP_INTERVAL: "6" })).toThrow(ConfigError);
    expect(() => loadConfig({ COFRE_BACKUP_INTERVAL: "6x" })).toThrow(/COFRE_BACKUP_INTERVAL/);
    expect(() => loadConfig({ COFRE_BACKUP_KEEP: "0" })).toThrow(/COFRE_BACKUP_KEEP/);
  });
});
