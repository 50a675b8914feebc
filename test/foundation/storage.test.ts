// sqlite-only: SQLite embedded migrations, pragmas and BEGIN IMMEDIATE on the database file
/** Storage: embedded migrations, pragmas, BEGIN IMMEDIATE (issue "Runtime foundation" part 2). */
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { sql } from "drizzle-orm";
import { EMBEDDED, embeddedMigrations, runMigrations } from "../../src/store/sqlite/migrations";
import { openDb, tx } from "../../src/store/sqlite/client";

const dir = mkdtempSync(join(tmpdir(), "cofre-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("embedded migrations", () => {
  test("the embedded list equals what drizzle-kit generated in db/migrations", () => {
    const fromFolder = readMigrationFiles({ migrationsFolder: "db/migrations" });
    expect(fromFolder.length).toBeGreaterThan(0);
    expect(embeddedMigrations()).toEqual(fromFolder);
  });

  test("every SQL file of db/migrations is embedded", () => {
    const files = readdirSync("db/migrations")
      .filter((f) => f.endsWith(".sql"))
      .map((f) => f.replace(/\.sql$/, ""))
      .sort();
    expect(Object.keys(EMBEDDED).sort()).toEqual(files);
  });

  test("migrating twice is harmless and records each migration once", () => {
    const db = openDb(":memory:");
    runMigrations(db);
    runMigrations(db);
    const applied = db.$client.query("select count(*) as n from __drizzle_migrations").get() as { n: number };
    expect(applied.n).toBe(embeddedMigrations().length);
    const tables = (
      db.$client.query("select name from sqlite_master where type = 'table'").all() as { name: string }[]
    ).map((r) => r.name);
    for (const t of ["jobs", "idempotency_keys", "accounts", "api_keys"]) expect(tables).toContain(t);
    db.$client.close();
  });
});

describe("the database file", () => {
  test("is created with its folder and opened with the pragmas of DESIGN.md", () => {
    const db = openDb(join(dir, "nested", "data"));
    const q = (sql: string) => Object.values(db.$client.query(sql).get() as object)[0];
    expect(q("PRAGMA journal_mode")).toBe("wal");
    expect(q("PRAGMA synchronous")).toBe(1);
    expect(q("PRAGMA busy_timeout")).toBe(5000);
    expect(q("PRAGMA foreign_keys")).toBe(1);
    expect(db.$client.filename).toBe(join(dir, "nested", "data", "cofre.db"));
    db.$client.close();
  });

  test("tx() takes the write lock at BEGIN (BEGIN IMMEDIATE), before its first write", () => {
    const data = join(dir, "immediate");
    const db = openDb(data);
    runMigrations(db);
    const other = new Database(join(data, "cofre.db"));
    other.exec("PRAGMA busy_timeout = 0");
    let otherCouldWrite = true;
    tx(db, () => {
      try {
        other.exec("BEGIN IMMEDIATE");
        other.exec("ROLLBACK");
      } catch {
        otherCouldWrite = false;
      }
    });
    expect(otherCouldWrite).toBe(false);
    other.exec("BEGIN IMMEDIATE");
    other.exec("ROLLBACK");
    other.close();
    db.$client.close();
  });

  test("a throw inside tx() rolls back every write of the callback", () => {
    const db = openDb(":memory:");
    runMigrations(db);
    db.$client.exec("create table t (x integer)");
    expect(() =>
      tx(db, (t) => {
        t.run(sql`insert into t values (1)`);
        db.$client.exec("insert into t values (2)");
        throw new Error("stop");
      }),
    ).toThrow("stop");
    expect((db.$client.query("select count(*) as n from t").get() as { n: number }).n).toBe(0);
    db.$client.close();
  });
});
