/**
 * Machinery of the multi-instance tests (issue 17): several `bun src/main.ts serve` processes on
 * one PostgreSQL database (test/support/pg.ts cluster) and HAProxy in front of them with the
 * configuration read out of docs/deploy.md (./doc.ts). The webhook receiver is ./receiver.ts.
 *
 * Every child process (instances, HAProxy) is registered: `Deployment.close()` ends them, and a
 * detached watchdog per child SIGKILLs it when this test process is gone (bun test runs no exit
 * handlers, and a killed runner none at all), so a failing or killed run leaves nothing behind.
 * A missing `haproxy` binary is a failure naming the install command, never a skip.
 */
import { SQL as BunSQL, type SQL, type Subprocess } from "bun";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { pgCluster } from "../support/pg";
import { docBlock, haproxyConfig, TEST_HAPROXY_GLOBAL } from "./doc";

export const ROOT = join(import.meta.dir, "..", "..");
/** What a machine without HAProxy must run (scripts/test-tools.sh does it when it is missing). */
export const HAPROXY_INSTALL = "apt-get update && apt-get install -y --no-install-recommends haproxy";

/** The haproxy binary; throws naming HAPROXY_INSTALL when it is not installed. */
export function haproxyBinary(): string {
  const found = Bun.which("haproxy", { PATH: `${process.env.PATH ?? ""}:/usr/sbin:/usr/local/sbin:/sbin` });
  if (!found)
    throw new Error(
      `HAProxy is not installed (no haproxy on PATH or in /usr/sbin): the multi-instance tests need it. Install it with:\n  ${HAPROXY_INSTALL}`,
    );
  return found;
}

// ---- processes ---------------------------------------------------------------------------------

/** A loopback port nobody listens on right now. */
export function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** SIGKILLs `pid` once this test process is gone (or returns as soon as `pid` is). */
function watchdog(pid: number): void {
  const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${pid} 2>/dev/null; do sleep 0.5; done; kill -9 ${pid} 2>/dev/null`;
  Bun.spawn(["setsid", "-f", "sh", "-c", script], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).unref();
}

/** The last `max` lines of a child's output, for failure messages. */
class Tail {
  private lines: string[] = [];
  private partial = "";
  constructor(private readonly max = 80) {}
  push(text: string): void {
    const parts = (this.partial + text).split("\n");
    this.partial = parts.pop()!;
    this.lines.push(...parts);
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  }
  text(): string {
    return [...this.lines, this.partial].join("\n").trim();
  }
}

function drain(stream: ReadableStream<Uint8Array> | null | undefined, tail: Tail): Promise<void> {
  if (!stream) return Promise.resolve();
  return (async () => {
    const d = new TextDecoder();
    for await (const chunk of stream) tail.push(d.decode(chunk, { stream: true }));
  })().catch(() => {});
}

/** Runs `bun src/main.ts <args>` with `env`; resolves with its exit code and output. */
export async function cofreCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = Bun.spawn(["bun", "src/main.ts", ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  return { code, stdout, stderr };
}

/** One `cofre serve` process on a fixed port; `kill` and `start` again keep the port (the load balancer lists it). */
export class Instance {
  readonly base: string;
  proc: Subprocess | null = null;
  private out = new Tail();
  private err = new Tail();
  /** Times this instance was started. */
  starts = 0;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {
    this.base = `http://127.0.0.1:${port}`;
  }

  /** Spawns `serve` and resolves once `/readyz` answers 200 (throws with the child's output after `timeoutMs`). */
  async start(timeoutMs = 30_000): Promise<void> {
    const proc = Bun.spawn(["bun", "src/main.ts", "serve"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        ...this.env,
        PORT: String(this.port),
        HOST: "127.0.0.1",
      },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    this.proc = proc;
    this.starts++;
    watchdog(proc.pid);
    void drain(proc.stdout, this.out);
    void drain(proc.stderr, this.err);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) break;
      try {
        const r = await fetch(`${this.base}/readyz`, { signal: AbortSignal.timeout(1000) });
        if (r.status === 200) return;
      } catch {}
      await Bun.sleep(50);
    }
    proc.kill("SIGKILL");
    await proc.exited;
    throw new Error(`${this.name} (port ${this.port}) did not become ready (exit ${proc.exitCode}):\n${this.output()}`);
  }

  /** Sends `signal` and waits for the process to end. */
  async kill(signal: "SIGKILL" | "SIGTERM" = "SIGKILL"): Promise<void> {
    const p = this.proc;
    if (!p) return;
    p.kill(signal);
    const timer = setTimeout(() => p.kill("SIGKILL"), 10_000);
    await p.exited;
    clearTimeout(timer);
    this.proc = null;
  }

  /** The tail of its stdout and stderr. */
  output(): string {
    return `--- ${this.name} stdout ---\n${this.out.text()}\n--- ${this.name} stderr ---\n${this.err.text()}`;
  }
}

/** HAProxy in the foreground with a given configuration. */
export class Haproxy {
  proc: Subprocess | null = null;
  private out = new Tail();

  constructor(
    readonly port: number,
    private readonly files: string[],
  ) {}

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Checks the configuration (`haproxy -c`), starts it and waits until it answers `/readyz` with 200. */
  async start(): Promise<void> {
    const bin = haproxyBinary();
    const args = this.files.flatMap((f) => ["-f", f]);
    const check = Bun.spawnSync([bin, "-c", ...args], { stdout: "pipe", stderr: "pipe" });
    if (check.exitCode !== 0) throw new Error(`haproxy -c refused the configuration:\n${check.stdout}${check.stderr}`);
    const proc = Bun.spawn([bin, "-db", ...args], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    this.proc = proc;
    watchdog(proc.pid);
    void drain(proc.stdout, this.out);
    void drain(proc.stderr, this.out);
    for (let i = 0; i < 200; i++) {
      if (proc.exitCode !== null) break;
      try {
        const r = await fetch(`${this.base}/readyz`, { signal: AbortSignal.timeout(1000) });
        if (r.status === 200) return;
      } catch {}
      await Bun.sleep(25);
    }
    throw new Error(`haproxy did not answer /readyz through port ${this.port}:\n${this.out.text()}`);
  }

  async stop(): Promise<void> {
    const p = this.proc;
    this.proc = null;
    if (!p) return;
    p.kill("SIGTERM");
    const timer = setTimeout(() => p.kill("SIGKILL"), 5000);
    await p.exited;
    clearTimeout(timer);
  }

  output(): string {
    return this.out.text();
  }
}

// ---- HTTP --------------------------------------------------------------------------------------

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** Options of `api`: an API key or a bearer token, a JSON body, extra headers, a timeout (default 20 s). */
export interface CallOptions {
  key?: string;
  bearer?: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One JSON request; a network failure (a killed instance, a timeout) throws. */
export async function api(base: string, method: string, path: string, o: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.apikey = o.key;
  if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
  if (o.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    signal: AbortSignal.timeout(o.timeoutMs ?? 20_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, headers: res.headers };
}

// ---- a deployment ------------------------------------------------------------------------------

export const OPERATOR_TOKEN = "multi_operator_token_0123456789abcdef";
export const OWNER = { email: "owner@multi.example", password: "a long passphrase for multi" };

/** Options of `startDeployment`. */
export interface DeploymentOptions {
  /** Number of `serve` processes (default 3). */
  instances?: number;
  /** Database name to create empty on the test cluster (default a unique one). */
  database?: string;
  /** Extra environment of every instance. */
  env?: Record<string, string>;
}

/** Instances, HAProxy and the account `cofre init --test-key` created, on one fresh database. */
export interface Deployment {
  instances: Instance[];
  lb: Haproxy;
  /** The load balancer's base URL (what COFRE_PUBLIC_URL says). */
  base: string;
  /** The instances' environment (COFRE_DATABASE_URL, COFRE_SECRETS_KEY, COFRE_DATA_DIR, ...). */
  env: Record<string, string>;
  database: { name: string; url: string; port: number; sql: SQL };
  dataDir: string;
  accountId: string;
  /** The sandbox key `cofre init --test-key` printed. */
  apiKey: string;
  /** `bun src/main.ts <args>` with the instances' environment. */
  cli(args: string[], env?: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Ends every process, closes the pool, drops the database and removes the data folder; never throws. */
  close(): Promise<void>;
  /** Every child's output, for a failure message. */
  output(): string;
}

/**
 * A fresh empty database (created here, migrated by `bun src/main.ts migrate`), `init --test-key`
 * through the CLI, `instances` serve processes on free loopback ports sharing the database, the
 * secrets key and the data folder (COFRE_WEBHOOK_ALLOW_PRIVATE=1, COFRE_TEST_CLOCK=1, an operator
 * token, the balancer trusted for X-Forwarded-For), and HAProxy with the docs/deploy.md configuration in front. On failure everything
 * started so far is closed before the error is rethrown.
 */
export async function startDeployment(opts: DeploymentOptions = {}): Promise<Deployment> {
  haproxyBinary(); // fail first, loudly, when it is missing
  const cluster = await pgCluster();
  const name = opts.database ?? `cofre_m${process.pid}_${++dbSeq}`;
  await cluster.admin.unsafe(`drop database if exists ${name} with (force)`);
  await cluster.admin.unsafe(`create database ${name} template template0`);
  const url = `postgres://cofre@127.0.0.1:${cluster.port}/${name}`;
  const sql = new BunSQL({ url, max: 3 });
  const dataDir = mkdtempSync(join(tmpdir(), "cofre-multi-"));
  const lbPort = freePort();
  const env: Record<string, string> = {
    COFRE_DATABASE_URL: url,
    COFRE_DATABASE_POOL: "6",
    COFRE_SECRETS_KEY: randomBytes(32).toString("base64"),
    COFRE_DATA_DIR: dataDir,
    COFRE_PUBLIC_URL: `http://127.0.0.1:${lbPort}`,
    COFRE_TRUSTED_PROXIES: "127.0.0.1", // the balancer's address, as the doc's environment file says
    COFRE_WEBHOOK_ALLOW_PRIVATE: "1",
    COFRE_TEST_CLOCK: "1",
    COFRE_OPERATOR_TOKEN: OPERATOR_TOKEN,
    LOG_LEVEL: "warn",
    ...opts.env,
  };
  const instances: Instance[] = [];
  const lb = new Haproxy(lbPort, [join(dataDir, "haproxy-global.cfg"), join(dataDir, "haproxy.cfg")]);
  const cli = (args: string[], extra: Record<string, string> = {}) => cofreCli(args, { ...env, ...extra });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await lb.stop().catch(() => {});
    await Promise.all(instances.map((i) => i.kill("SIGKILL").catch(() => {})));
    await sql.close().catch(() => {});
    await cluster.admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  };
  const output = () => [...instances.map((i) => i.output()), `--- haproxy ---\n${lb.output()}`].join("\n");
  try {
    const migrated = await cli(["migrate"]);
    if (migrated.code !== 0)
      throw new Error(`cofre migrate exited ${migrated.code}: ${migrated.stdout}${migrated.stderr}`);
    const init = await cli([
      "init",
      "--email",
      OWNER.email,
      "--password",
      OWNER.password,
      "--account-name",
      "Loja Multi",
      "--test-key",
    ]);
    if (init.code !== 0) throw new Error(`cofre init exited ${init.code}: ${init.stdout}${init.stderr}`);
    const created = JSON.parse(init.stdout.trim().split("\n").pop()!) as { account_id: string; test_api_key: string };
    const n = opts.instances ?? 3;
    for (let i = 0; i < n; i++) instances.push(new Instance(`cofre${i + 1}`, freePort(), env));
    await Promise.all(instances.map((i) => i.start()));
    writeFileSync(join(dataDir, "haproxy-global.cfg"), TEST_HAPROXY_GLOBAL);
    writeFileSync(
      join(dataDir, "haproxy.cfg"),
      haproxyConfig(
        docBlock("haproxy"),
        `127.0.0.1:${lbPort}`,
        instances.map((i) => `127.0.0.1:${i.port}`),
      ),
    );
    await lb.start();
    return {
      instances,
      lb,
      base: lb.base,
      env,
      database: { name, url, port: cluster.port, sql },
      dataDir,
      accountId: created.account_id,
      apiKey: created.test_api_key,
      cli,
      close,
      output,
    };
  } catch (err) {
    const out = output();
    await close();
    throw new Error(`${(err as Error).message}\n${out}`);
  }
}
let dbSeq = 0;
