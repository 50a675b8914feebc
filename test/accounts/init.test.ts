import { describe, expect, test, afterAll, setDefaultTimeout } from "bun:test";

// Each test spawns `bun src/main.ts` (one to two seconds apiece on a busy 2-core box).
setDefaultTimeout(20_000);
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../src/app";
import { initStartupNotes, parseInitArgs } from "../../src/cli/init";
import { serverEnv, testDeps } from "../support/backend";
import { testDb } from "../support/test-db";

const ROOT = join(import.meta.dir, "..", "..");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), "cofre-init-"));
  dirs.push(d);
  return d;
}

async function cofre(dir: string, ...args: string[]) {
  const p = Bun.spawn(["bun", "src/main.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...serverEnv(dir), NODE_ENV: "test", LOG_LEVEL: "silent" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { stdout, stderr, code };
}

async function counts(dir: string) {
  const deps = testDeps({ dataDir: dir, config: { logLevel: "silent" } });
  const q = async (t: string) => (await testDb(deps).get<{ n: number }>(`select count(*) as n from ${t}`))!.n;
  const out = { accounts: await q("accounts"), users: await q("users") };
  await deps.store.close();
  return out;
}

describe("cofre init", () => {
  test("creates an account and its OWNER, prints one JSON line, and the owner can log in", async () => {
    const dir = dataDir();
    const r = await cofre(
      dir,
      "init",
      "--email",
      "Owner@Example.com",
      "--password",
      "first password",
      "--account-name",
      "Minha Loja",
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines.length).toBe(1);
    const out = JSON.parse(lines[0]!);
    expect(Object.keys(out).sort()).toEqual(["account_id", "email", "user_id"]);
    expect(out.email).toBe("owner@example.com");
    expect(out.account_id).toMatch(/^acct_/);
    expect(out.user_id).toMatch(/^usr_/);

    const deps = testDeps({ dataDir: dir, config: { logLevel: "silent" } });
    const app = createApp(deps);
    const login = await app.handle(
      new Request("http://localhost/v1/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "owner@example.com", password: "first password" }),
      }),
    );
    expect(login.status).toBe(200);
    const body = (await login.json()) as { account_id: string; role: string; access_token: string };
    expect(body.account_id).toBe(out.account_id);
    expect(body.role).toBe("OWNER");
    const account = await app.handle(
      new Request("http://localhost/v1/account", { headers: { authorization: `Bearer ${body.access_token}` } }),
    );
    expect(((await account.json()) as { name: string }).name).toBe("Minha Loja");
    await deps.store.close();
  });

  test("an email that already exists: message on stderr, exit 1, nothing changed", async () => {
    const dir = dataDir();
    expect((await cofre(dir, "init", "--email", "dup@example.com", "--password", "first password")).code).toBe(0);
    const before = await counts(dir);
    const r = await cofre(
      dir,
      "init",
      "--email",
      "DUP@example.com",
      "--password",
      "other password",
      "--account-name",
      "Second",
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("already exists");
    expect(await counts(dir)).toEqual(before);
    expect(before).toEqual({ accounts: 1, users: 1 });
  });

  test("missing or unknown arguments print usage and exit 2 without creating anything", async () => {
    const dir = dataDir();
    for (const args of [
      ["--email", "x@example.com"],
      ["--password", "pw12345678"],
      ["--email", "x@example.com", "--password", "pw12345678", "--role", "ADMIN"],
    ]) {
      const r = await cofre(dir, "init", ...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("usage: cofre init");
    }
    const bad = await cofre(dir, "init", "--email", "not-an-email", "--password", "pw12345678");
    expect(bad.code).toBe(2);
    expect(await counts(dir)).toEqual({ accounts: 0, users: 0 });
  });

  test("--test-key issues a sandbox key with the account, prints it once, and the key works at once", async () => {
    const dir = dataDir();
    const r = await cofre(dir, "init", "--email", "demo@example.com", "--password", "first password", "--test-key");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout.trim());
    expect(Object.keys(out).sort()).toEqual(["account_id", "email", "test_api_key", "user_id"]);
    expect(out.test_api_key).toMatch(/^ak_test_[A-Za-z0-9_-]{32}$/);

    const deps = testDeps({ dataDir: dir, config: { logLevel: "silent" } });
    const app = createApp(deps);
    const ping = await app.handle(new Request("http://localhost/v1/ping", { headers: { apikey: out.test_api_key } }));
    expect(ping.status).toBe(200);
    expect(await ping.json()).toEqual({ object: "ping", mode: "test" });
    const keys = await testDb(deps).all("select mode, label, created_by from api_keys");
    expect(keys).toEqual([{ mode: "test", label: "cofre init", created_by: out.user_id }]);
    const audit = await testDb(deps).all("select action from audit_log");
    expect(audit).toEqual([{ action: "api_key.issued" }]);
    // The ping's request-log row is written after the response (onAfterResponse): let it run first.
    await new Promise((r) => setImmediate(r));
    await deps.store.close();
  });

  test("run again with the same e-mail, password and --test-key: a new test key for the same account, the same JSON line, exit 0", async () => {
    const dir = dataDir();
    const first = JSON.parse(
      (
        await cofre(dir, "init", "--email", "twice@example.com", "--password", "first password", "--test-key")
      ).stdout.trim(),
    );
    const r = await cofre(
      dir,
      "init",
      "--email",
      "Twice@Example.com",
      "--password",
      "first password",
      "--account-name",
      "Ignored",
      "--test-key",
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const again = JSON.parse(r.stdout.trim());
    expect(Object.keys(again).sort()).toEqual(["account_id", "email", "test_api_key", "user_id"]);
    expect({ account_id: again.account_id, user_id: again.user_id, email: again.email }).toEqual({
      account_id: first.account_id,
      user_id: first.user_id,
      email: "twice@example.com",
    });
    expect(again.test_api_key).toMatch(/^ak_test_[A-Za-z0-9_-]{32}$/);
    expect(again.test_api_key).not.toBe(first.test_api_key);
    expect(await counts(dir)).toEqual({ accounts: 1, users: 1 });
    const deps = testDeps({ dataDir: dir, config: { logLevel: "silent" } });
    const app = createApp(deps);
    for (const key of [first.test_api_key, again.test_api_key]) {
      const ping = await app.handle(new Request("http://localhost/v1/ping", { headers: { apikey: key } }));
      expect(ping.status).toBe(200);
    }
    expect(await testDb(deps).all("select label from api_keys")).toEqual([
      { label: "cofre init" },
      { label: "cofre init" },
    ]);
    expect(await testDb(deps).all("select name from accounts")).toEqual([{ name: "twice@example.com" }]);
    await new Promise((r) => setImmediate(r));
    await deps.store.close();
  });

  test("--test-key with an existing e-mail and a wrong password: exit 1, a message, no key", async () => {
    const dir = dataDir();
    expect((await cofre(dir, "init", "--email", "twice@example.com", "--password", "first password")).code).toBe(0);
    const r = await cofre(dir, "init", "--email", "twice@example.com", "--password", "wrong password", "--test-key");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("already exists with another password");
    const deps = testDeps({ dataDir: dir, config: { logLevel: "silent" } });
    expect(await testDb(deps).get("select count(*) as n from api_keys")).toEqual({ n: 0 });
    await deps.store.close();
  });

  test("argument parsing accepts --flag value and --flag=value", () => {
    expect(parseInitArgs(["--email=a@b.co", "--password", "p w", "--account-name=Loja X"])).toEqual({
      email: "a@b.co",
      password: "p w",
      accountName: "Loja X",
    });
    expect(parseInitArgs(["--email", "a@b.co"])).toBeNull();
    expect(parseInitArgs(["--email", "a@b.co", "--password"])).toBeNull();
    expect(parseInitArgs(["--email", "a@b.co", "--email", "c@d.co", "--password", "x"])).toBeNull();
    expect(parseInitArgs(["--test-key", "--email", "a@b.co", "--password", "x"])).toEqual({
      email: "a@b.co",
      password: "x",
      accountName: undefined,
      testKey: true,
    });
    expect(parseInitArgs(["--email", "a@b.co", "--password", "x", "--test-key", "--test-key"])).toBeNull();
  });

  test("serve's startup notes explain init while the database has no account, and go quiet after", async () => {
    const dir = dataDir();
    const deps = testDeps({ dataDir: dir, config: { logLevel: "silent" } });
    const notes = await initStartupNotes(deps);
    expect(notes.length).toBe(1);
    expect(notes[0]).toContain("cofre init --email");
    await deps.store.close();
    await cofre(dir, "init", "--email", "n@example.com", "--password", "first password");
    const again = testDeps({ dataDir: dir, config: { logLevel: "silent" } });
    expect(await initStartupNotes(again)).toEqual([]);
    await again.store.close();
  });
});
