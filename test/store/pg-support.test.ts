// own-database: starts the PostgreSQL it tests itself (run once, by `bun run test`)
/** test/support/pg.ts: finding the server, and failing loudly (never skipping) without one. */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PG_INSTALL, PG_START_TIMEOUT, pgBinDir, pgDatabase } from "../support/pg";

const root = mkdtempSync(join(tmpdir(), "cofre-pgbin-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("fails naming the install command when PostgreSQL is not installed", () => {
  expect(() => pgBinDir(join(root, "none"), join(root, "empty-path"))).toThrow(PG_INSTALL);
  expect(PG_INSTALL).toBe("apt-get update && apt-get install -y --no-install-recommends postgresql");
});

test("picks the newest installed major version", () => {
  for (const v of ["9", "15", "13"]) {
    mkdirSync(join(root, "lib", v, "bin"), { recursive: true });
    writeFileSync(join(root, "lib", v, "bin", "initdb"), "");
  }
  mkdirSync(join(root, "lib", "16")); // a folder without a server is not a version
  expect(pgBinDir(join(root, "lib"), "")).toBe(join(root, "lib", "15", "bin"));
});

test(
  "gives each caller its own database copied from the migrated template",
  async () => {
    const [a, b] = [await pgDatabase(), await pgDatabase()];
    try {
      expect(a.name).not.toBe(b.name);
      await a.sql`insert into service_secrets (name, value, created_at) values ('k', 'v', 0)`;
      const count = async (s: typeof a.sql) => (await s`select count(*)::int as n from service_secrets`)[0].n;
      expect([await count(a.sql), await count(b.sql)]).toEqual([1, 0]);
    } finally {
      await a.drop();
      await b.drop();
    }
    const c = await pgDatabase();
    const [gone] = await c.sql`select count(*)::int as n from pg_database where datname in (${a.name}, ${b.name})`;
    await c.drop();
    expect(gone.n).toBe(0);
  },
  PG_START_TIMEOUT,
);
