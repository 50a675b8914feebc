/** A real `serve` process on a fresh data dir with an account and a test key (end-to-end tests). */
import { expect } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../foundation/process";
import { serverEnv } from "./backend";

const ROOT = join(import.meta.dir, "..", "..");

export interface ServedAccount {
  server: RunningServer;
  /** The instance's data folder (COFRE_DATA_DIR). */
  dir: string;
  apiKey: string;
  /** JSON request with the test key; returns status and parsed body. */
  call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
  /** Stops the server and removes its data dir. */
  close: () => Promise<void>;
}

/** `cofre init`, then `serve` (extra `env`), login and a test key issued through the API. */
export async function serveWithTestKey(env: Record<string, string> = {}): Promise<ServedAccount> {
  const dir = mkdtempSync(join(tmpdir(), "cofre-serve-"));
  const init = Bun.spawnSync(
    ["bun", "src/main.ts", "init", "--email", "e2e@example.com", "--password", "a long passphrase"],
    {
      cwd: ROOT,
      env: { ...process.env, ...serverEnv(dir) },
    },
  );
  expect(init.exitCode).toBe(0);
  const server = await startServer(["bun", "src/main.ts", "serve"], {
    dataDir: dir,
    cwd: ROOT,
    env: { LOG_LEVEL: "info", ...env },
    timeoutMs: 20_000,
  });
  const json = { "content-type": "application/json" };
  const login = await fetch(`${server.base}/v1/auth/login`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email: "e2e@example.com", password: "a long passphrase" }),
  });
  expect(login.status).toBe(200);
  const { access_token } = (await login.json()) as { access_token: string };
  const issued = await fetch(`${server.base}/v1/api-keys`, {
    method: "POST",
    headers: { ...json, authorization: `Bearer ${access_token}` },
    body: JSON.stringify({ label: "e2e", test: true }),
  });
  expect(issued.status).toBe(201);
  const { apiKey } = (await issued.json()) as { apiKey: string };
  const call: ServedAccount["call"] = async (method, path, body) => {
    const res = await fetch(`${server.base}${path}`, {
      method,
      headers: { ...json, apikey: apiKey },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed };
  };
  return {
    server,
    dir,
    apiKey,
    call,
    close: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
