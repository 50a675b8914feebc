/**
 * Drives the compiled executable `dist/cofre` for the bench and soak scripts: build it when
 * missing, run `init`, start/kill/restart `serve` on 127.0.0.1 with a given data dir, log in,
 * issue a key, read the server's peak RSS (VmHWM) from /proc.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";

export const ROOT = resolve(import.meta.dir, "../..");
/** The executable under test: `dist/cofre`, or `BENCH_BINARY` (bench/compare.ts: another tree's). */
export const BIN = process.env.BENCH_BINARY ?? join(ROOT, "dist/cofre");

/** Builds `dist/cofre` (`bun run build`) when it is missing or `force` is set (never `BENCH_BINARY`). */
export async function ensureBinary(force = false): Promise<void> {
  if (process.env.BENCH_BINARY) {
    if (!existsSync(BIN)) throw new Error(`BENCH_BINARY ${BIN} does not exist`);
    return;
  }
  if (existsSync(BIN) && !force) return;
  const p = Bun.spawn(["bun", "run", "build"], { cwd: ROOT, stdout: "ignore", stderr: "inherit" });
  if ((await p.exited) !== 0) throw new Error("bun run build failed");
}

/** A free TCP port on 127.0.0.1 (bound then released). */
export function freePort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = s.port!;
  s.stop(true);
  return port;
}

export interface ServerOptions {
  dataDir?: string;
  port?: number;
  env?: Record<string, string>;
  /** Command that runs the executable (default `[dist/cofre]`; e.g. `["bun", "src/main.ts"]`). */
  cmd?: string[];
}

/** A `dist/cofre serve` child process that can be killed and restarted on the same port and data. */
export class CofreServer {
  readonly dataDir: string;
  readonly port: number;
  readonly base: string;
  proc: Subprocess | null = null;
  private env: Record<string, string>;
  private readonly cmd: string[];

  constructor(opts: ServerOptions = {}) {
    this.cmd = opts.cmd ?? [BIN];
    this.dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "cofre-run-"));
    this.port = opts.port ?? freePort();
    this.base = `http://127.0.0.1:${this.port}`;
    this.env = {
      ...(process.env as Record<string, string>),
      PORT: String(this.port),
      HOST: "127.0.0.1",
      COFRE_DATA_DIR: this.dataDir,
      COFRE_PUBLIC_URL: this.base,
      COFRE_RATE_LIMIT_PER_MINUTE: "0",
      COFRE_WEBHOOK_ALLOW_PRIVATE: "1",
      LOG_LEVEL: "warn",
      ...opts.env,
    };
    // Never leave a server behind when the script ends or crashes.
    process.on("exit", () => this.proc?.kill("SIGKILL"));
  }

  /** Runs a one-shot CLI command (`init`, `ledger verify`) against the same data dir. */
  async cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const p = Bun.spawn([...this.cmd, ...args], { cwd: ROOT, env: this.env, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    return { code, stdout, stderr };
  }

  /** Starts `serve` and resolves once `/readyz` answers 200 (throws after `timeoutMs`). */
  async start(timeoutMs = 15_000): Promise<void> {
    this.proc = Bun.spawn([...this.cmd, "serve"], { cwd: ROOT, env: this.env, stdout: "ignore", stderr: "ignore" });
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      try {
        const r = await fetch(`${this.base}/readyz`);
        if (r.status === 200) return;
      } catch {}
      if (this.proc.exitCode !== null) throw new Error(`cofre exited with ${this.proc.exitCode} while starting`);
      await Bun.sleep(25);
    }
    throw new Error("cofre did not become ready");
  }

  /** SIGKILL (no shutdown hook runs) and wait for the process to be gone. */
  async kill(signal: NodeJS.Signals | number = "SIGKILL"): Promise<void> {
    if (!this.proc) return;
    this.proc.kill(signal);
    await this.proc.exited;
    this.proc = null;
  }

  /** Deletes the data dir (call after the process is gone). */
  removeData(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Peak resident set size of the server process in KiB (VmHWM), or null when unreadable. */
  /**
   * CPU time the server process has used so far, in microseconds (utime + stime from
   * /proc/<pid>/stat, clock ticks of 10 ms), or null when unreadable. Per-request CPU is steadier
   * than req/s on a box whose load generator shares the cores.
   */
  async cpuMicros(): Promise<number | null> {
    if (!this.proc) return null;
    const stat = await Bun.file(`/proc/${this.proc.pid}/stat`)
      .text()
      .catch(() => "");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10_000 : null;
  }

  async peakRssKiB(): Promise<number | null> {
    if (!this.proc) return null;
    try {
      const status = await Bun.file(`/proc/${this.proc.pid}/status`).text();
      const m = /VmHWM:\s+(\d+) kB/.exec(status);
      return m ? Number(m[1]) : null;
    } catch {
      return null;
    }
  }
}

/** JSON request helper: returns status and parsed body; throws only on network failure. */
export async function api(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; bearer?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.apikey = opts.key;
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const r = await fetch(`${base}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  const text = await r.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: r.status, body };
}

export interface Merchant {
  email: string;
  password: string;
  accountId: string;
  token: string;
  testKey: string;
}

/** Runs `cofre init` on the server's data dir (server stopped or running); returns the new account id. */
export async function cliInit(
  server: CofreServer,
  email: string,
  password: string,
  accountName: string,
): Promise<string> {
  const init = await server.cli(["init", "--email", email, "--password", password, "--account-name", accountName]);
  if (init.code !== 0) throw new Error(`cofre init failed: ${init.stderr}`);
  return JSON.parse(init.stdout.trim().split("\n").pop()!).account_id as string;
}

/** Logs in and issues a test key; needs the server running. */
export async function loginAndKey(
  base: string,
  email: string,
  password: string,
): Promise<{ token: string; testKey: string }> {
  const login = await api(base, "POST", "/v1/auth/login", { body: { email, password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  const key = await api(base, "POST", "/v1/api-keys", {
    bearer: login.body.access_token,
    body: { label: "bench", test: true },
  });
  if (key.status !== 201) throw new Error(`key issue failed: ${key.status} ${JSON.stringify(key.body)}`);
  return { token: login.body.access_token, testKey: key.body.apiKey };
}
