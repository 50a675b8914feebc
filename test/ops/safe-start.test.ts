/**
 * Safe starts (extensions.md "Operations", issue 28 §3): `serve` refuses a taken port (exit 1, one
 * line) and a database a newer Cofre migrated (exit 2); `cofre migrate --dry-run` lists pending
 * migrations and changes nothing; `bun run dev` listens on loopback; the simulators' `init`
 * folders are not offered to `git status`. Both backends.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { knownSqliteMigrations } from "../../src/store/sqlite/schema-version";
import { embeddedPgMigrations } from "../../src/store/pg/migrations";
import { startServer } from "../foundation/process";
import { serverEnv, testDeps, TEST_PG } from "../support/backend";
import { serveWithTestKey } from "../support/serve";
import { testDb } from "../support/test-db";
import { cofre, ROOT } from "./support";

const work = mkdtempSync(join(tmpdir(), "cofre-safe-start-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MIGRATIONS = TEST_PG ? "drizzle.__drizzle_migrations" : "__drizzle_migrations";
const LAST_TAG = TEST_PG ? embeddedPgMigrations().at(-1)!.tag : knownSqliteMigrations().at(-1)!.tag;
const portTaken = (port: number, host: string) =>
  `cofre: port ${port} on ${host} is already in use (another cofre serve?); stop that process or choose another PORT\n`;

/** A migrated database in a new data folder (closed again); returns the folder. */
async function migratedFolder(
  name: string,
  change?: (db: ReturnType<typeof testDb>) => Promise<void>,
): Promise<string> {
  const dir = join(work, name);
  const deps = testDeps({ dataDir: dir });
  try {
    await deps.store.ready();
    if (change) await change(testDb(deps));
  } finally {
    await deps.store.close();
  }
  return dir;
}

describe("two serve on one port", () => {
  test("the second exits 1 with one line and changes nothing, and the first keeps serving", async () => {
    const s = await serveWithTestKey();
    try {
      const port = s.server.port;
      const second = await cofre(["serve"], {
        ...serverEnv(s.dir),
        PORT: String(port),
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
      });
      expect([second.code, second.stderr, second.stdout]).toEqual([1, portTaken(port, "127.0.0.1"), ""]);
      const wildcard = await cofre(["serve"], {
        ...serverEnv(s.dir),
        PORT: String(port),
        HOST: "0.0.0.0",
        LOG_LEVEL: "info",
      });
      expect([wildcard.code, wildcard.stderr]).toEqual([1, portTaken(port, "0.0.0.0")]);
      for (let i = 0; i < 10; i++) expect((await s.call("GET", "/v1/ping")).status).toBe(200);
    } finally {
      await s.close();
    }
  }, 60_000);

  test("a port another process holds with port sharing on is refused too (no silent SO_REUSEPORT)", async () => {
    const holder = Bun.serve({ hostname: "127.0.0.1", port: 0, reusePort: true, fetch: () => new Response("holder") });
    try {
      const dir = join(work, "shared-port");
      const r = await cofre(["serve"], { ...serverEnv(dir), PORT: String(holder.port), HOST: "127.0.0.1" });
      expect([r.code, r.stderr]).toEqual([1, portTaken(holder.port!, "127.0.0.1")]);
      expect(await (await fetch(`http://127.0.0.1:${holder.port}/`)).text()).toBe("holder");
    } finally {
      await holder.stop(true);
    }
  }, 30_000);
});

describe("a database written by a newer Cofre", () => {
  test("serve, migrate and migrate --dry-run refuse it with exit 2 and one line", async () => {
    const dir = await migratedFolder("newer", async (db) => {
      await db.run(
        `insert into ${MIGRATIONS} (hash, created_at) values (?, ?)`,
        "from-a-newer-cofre",
        4_102_444_800_000,
      );
    });
    const line =
      "cofre: the database was written by a newer Cofre (1 migration(s) this version does not know, the newest from 2100-01-01T00:00:00.000Z); run that version, or restore a backup taken before the upgrade\n";
    for (const args of [["serve"], ["migrate"], ["migrate", "--dry-run"]]) {
      const r = await cofre(args, { ...serverEnv(dir), PORT: "0", HOST: "127.0.0.1" });
      expect({ args, code: r.code, stderr: r.stderr, stdout: r.stdout }).toEqual({
        args,
        code: 2,
        stderr: line,
        stdout: "",
      });
    }
  }, 60_000);
});

describe("cofre migrate --dry-run", () => {
  test("lists the pending migration and applies nothing", async () => {
    const dir = await migratedFolder("dry-run", async (db) => {
      await db.run(`delete from ${MIGRATIONS} where created_at = (select max(created_at) from ${MIGRATIONS})`);
    });
    const expected = `${JSON.stringify({ dry_run: true, database: TEST_PG ? "postgres" : "sqlite", pending: [LAST_TAG] })}\n`;
    const first = await cofre(["migrate", "--dry-run"], serverEnv(dir));
    expect([first.code, first.stdout, first.stderr]).toEqual([0, expected, ""]);
    // Still pending: the first run applied nothing (a real `migrate` would leave none).
    const second = await cofre(["migrate", "--dry-run"], serverEnv(dir));
    expect([second.code, second.stdout]).toEqual([0, expected]);
  }, 60_000);
});

describe("bun run dev", () => {
  test("listens on 127.0.0.1 unless HOST says otherwise", async () => {
    const loop = await startServer(["bun", "run", "dev"], {
      dataDir: join(work, "dev"),
      cwd: ROOT,
      env: { HOST: "" },
      timeoutMs: 20_000,
    });
    try {
      expect(loop.lines().find((l) => l.port)?.host).toBe("127.0.0.1");
    } finally {
      await loop.stop();
    }
    const any = await startServer(["bun", "run", "dev"], {
      dataDir: join(work, "dev"),
      cwd: ROOT,
      env: { HOST: "0.0.0.0" },
      timeoutMs: 20_000,
    });
    try {
      expect(any.lines().find((l) => l.port)?.host).toBe("0.0.0.0");
    } finally {
      await any.stop();
    }
  }, 60_000);
});

describe("simulator keys and git", () => {
  test("psp-sim init and stripe-sim init write folders that git status does not offer to commit", async () => {
    const repo = join(work, "repo");
    expect(Bun.spawnSync(["git", "init", "-q", repo]).exitCode).toBe(0);
    expect((await cofre(["psp-sim", "init", join(repo, "psp-sim")], {})).code).toBe(0);
    expect((await cofre(["stripe-sim", "init", join(repo, "stripe-sim")], {})).code).toBe(0);
    expect(readdirSync(join(repo, "psp-sim"))).toContain("pix-provider.json");
    expect(readdirSync(join(repo, "stripe-sim"))).toContain("card-provider.json");
    const status = Bun.spawnSync(["git", "-C", repo, "status", "--porcelain", "--untracked-files=all"]);
    expect(status.stdout.toString()).toBe("");
  }, 60_000);
});
