/** Command line: usage, migrate, configuration errors, serve on an ephemeral port (extensions.md). */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "./process";
import { serverEnv, testDeps, TEST_PG } from "../support/backend";

const root = mkdtempSync(join(tmpdir(), "cofre-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const MAIN = join(import.meta.dir, "../../src/main.ts");

/** Runs the CLI on data folder `dir` (under COFRE_TEST_PG=1 with that folder's PostgreSQL database). */
function run(args: string[], env: Record<string, string> = {}, dir = join(root, "default")) {
  const p = Bun.spawnSync(["bun", MAIN, ...args], {
    env: { ...process.env, ...serverEnv(dir), ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

describe("cofre CLI", () => {
  test("an unknown command prints usage on stderr and exits 2", () => {
    const r = run(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("usage: cofre <command>");
    expect(r.stderr).toContain("migrate");
    expect(r.stdout).toBe("");
  });

  test("migrate creates the database in COFRE_DATA_DIR (PostgreSQL: at COFRE_DATABASE_URL) and exits 0; a second run too", async () => {
    const dataDir = join(root, "fresh", "nested");
    const first = run(["migrate"], {}, dataDir);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout.trim().split("\n").pop()!)).toMatchObject({
      migrated: true,
      database: TEST_PG ? "postgres" : "sqlite",
    });
    if (TEST_PG) {
      const deps = testDeps({ dataDir, config: { logLevel: "silent" } });
      expect(await deps.store.ready()).toBe(true);
      await deps.store.close();
    } else expect(existsSync(join(dataDir, "cofre.db"))).toBe(true);
    expect(run(["migrate"], {}, dataDir).code).toBe(0);
  });

  test("a bad environment value is a message naming it, exit 2", () => {
    const r = run(["migrate"], { COFRE_RATE_LIMIT_PER_MINUTE: "lots" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("COFRE_RATE_LIMIT_PER_MINUTE");
    expect(r.stderr).not.toContain("    at ");
  });

  test("a COFRE_SECRETS_KEY that is not base64 of 32 bytes stops the start with exit 2, naming it", () => {
    const r = run(["migrate"], { COFRE_SECRETS_KEY: "too-short" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("COFRE_SECRETS_KEY must be base64 of 32 bytes");
    expect(r.stderr).not.toContain("too-short");
  });

  test("serve on a port already in use says so on stderr and exits 1", () => {
    const busy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("busy") });
    try {
      const r = run(["serve"], { PORT: String(busy.port), HOST: "127.0.0.1" }, join(root, "busy"));
      expect(r.code).toBe(1);
      expect(r.stderr).toStartWith("cofre: ");
      expect(r.stderr).toContain(String(busy.port));
    } finally {
      busy.stop(true);
    }
  });

  test("help prints usage on stdout and exits 0", () => {
    const r = run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("usage: cofre <command>");
  });

  test("serve with PORT=0 logs the real port, answers, and stops cleanly on SIGTERM", async () => {
    const srv = await startServer(["bun", MAIN, "serve"], { dataDir: join(root, "serve") });
    try {
      expect(srv.port).toBeGreaterThan(0);
      const ready = await fetch(`${srv.base}/readyz`);
      expect(ready.status).toBe(200);
      const first = srv.lines().find((l) => l.port === srv.port)!;
      expect(first.msg).toBe(`cofre listening on port ${srv.port}`);
      expect(first.level).toBe(30);
      const line = await srv.waitForLine((l) => l.msg === "request" && l.route === "/readyz");
      expect(line).toMatchObject({ method: "GET", status: 200 });
    } finally {
      expect(await srv.stop()).toBe(0);
    }
  });
});
