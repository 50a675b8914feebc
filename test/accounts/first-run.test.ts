import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverEnv } from "../support/backend";

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "cofre-first-run-"));
const env = { ...process.env, ...serverEnv(dir), NODE_ENV: "test", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" };
let server: ReturnType<typeof Bun.spawn> | undefined;

afterAll(async () => {
  if (server) {
    server.kill();
    await server.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `serve` and resolves with its port and every log line read so far. */
async function startServer(): Promise<{ port: number; lines: string[] }> {
  server = Bun.spawn(["bun", "src/main.ts", "serve"], { cwd: ROOT, env, stdout: "pipe", stderr: "inherit" });
  const reader = (server.stdout as ReadableStream<Uint8Array>).getReader();
  const lines: string[] = [];
  let buf = "";
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += new TextDecoder().decode(value);
    const parts = buf.split("\n");
    buf = parts.pop()!;
    lines.push(...parts);
    const listening = lines.map((l) => JSON.parse(l)).find((l) => typeof l.port === "number");
    if (listening && lines.some((l) => l.includes("cofre init"))) {
      reader.releaseLock();
      return { port: listening.port, lines };
    }
  }
  throw new Error(`server did not start: ${lines.join("\n")}`);
}

describe("first run (README)", () => {
  test("serve on an empty database logs how to run init; then init, login, issue a test key and call the API", async () => {
    const { port, lines } = await startServer();
    expect(lines.some((l) => l.includes("cofre init --email"))).toBe(true);
    const base = `http://127.0.0.1:${port}`;

    const init = Bun.spawnSync(
      [
        "bun",
        "src/main.ts",
        "init",
        "--email",
        "owner@example.com",
        "--password",
        "a long passphrase",
        "--account-name",
        "My shop",
      ],
      { cwd: ROOT, env },
    );
    expect(init.exitCode).toBe(0);
    const created = JSON.parse(init.stdout.toString());

    const json = { "content-type": "application/json" };
    const login = await fetch(`${base}/v1/auth/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "owner@example.com", password: "a long passphrase" }),
    });
    expect(login.status).toBe(200);
    const { access_token, account_id } = (await login.json()) as { access_token: string; account_id: string };
    expect(account_id).toBe(created.account_id);

    const issued = await fetch(`${base}/v1/api-keys`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ label: "my backend", test: true }),
    });
    expect(issued.status).toBe(201);
    const { apiKey, fingerprint } = (await issued.json()) as { apiKey: string; fingerprint: string };
    expect(apiKey).toMatch(/^ak_test_/);

    const ping = await fetch(`${base}/v1/ping`, { headers: { apikey: apiKey } });
    expect(ping.status).toBe(200);
    expect(await ping.json()).toEqual({ object: "ping", mode: "test" });

    // a key with anything added is refused (and, being no key, not logged)
    expect((await fetch(`${base}/v1/ping`, { headers: { apikey: `${apiKey}x` } })).status).toBe(401);

    const logs = await fetch(`${base}/v1/request-logs?fingerprint=${fingerprint}`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    const body = (await logs.json()) as { data: { path: string; status: number }[] };
    expect(body.data.map((e) => [e.path, e.status])).toEqual([["/v1/ping", 200]]);

    const wrong = await fetch(`${base}/v1/auth/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "owner@example.com", password: "nope" }),
    });
    expect(wrong.status).toBe(401);
    const out = await fetch(`${base}/v1/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(out.status).toBe(204);
    expect((await fetch(`${base}/v1/account`, { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(
      401,
    );
  }, 30_000);
});
