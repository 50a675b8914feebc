/**
 * Foundation benchmark (a script, not a test): `bun run bench:foundation [seconds]`.
 *
 * Starts `bun src/main.ts serve` on 127.0.0.1 with a fresh temporary data dir and info-level
 * logs (stdout to /dev/null), seeds one account with a test key straight into the database, and
 * measures `GET /healthz` and the authenticated no-op `GET /v1/ping` with wrk (2 threads, 50
 * connections, default 10 s each). Prints requests/s with p50/p99 latency as a Markdown table.
 * The rate limit is set far above what the run can reach so the limiter still runs on every call.
 * Needs `wrk` (`apt-get install -y wrk`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accounts, apiKeys } from "../db/schema";
import { createDeps } from "../src/deps";
import { newId } from "../src/lib/ids";
import { randomBase64Url, sha256Hex } from "../src/lib/crypto";

const seconds = Number(process.argv[2] ?? 10);
const CONNECTIONS = 50;
const THREADS = 2;

interface Result {
  name: string;
  rps: number;
  p50: string;
  p99: string;
  non2xx: number;
}

if (!Bun.which("wrk")) {
  console.error("bench: wrk not found; install it with `apt-get install -y wrk`");
  process.exit(1);
}

/** Seeds an account and a test key directly in the database; returns the key in clear. */
function seed(dataDir: string): string {
  const deps = createDeps({ dataDir, config: { logLevel: "silent" } });
  const now = Date.now();
  const accountId = newId("account");
  const key = `ak_test_${randomBase64Url(24)}`;
  deps.db.insert(accounts).values({ id: accountId, name: "Bench", createdAt: now }).run();
  deps.db
    .insert(apiKeys)
    .values({ id: newId("apiKey"), accountId, mode: "test", fingerprint: sha256Hex(key), prefix: key.slice(0, 12), label: "bench", createdAt: now })
    .run();
  deps.db.$client.close();
  return key;
}

function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

async function waitReady(base: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return;
    } catch {}
    await Bun.sleep(50);
  }
  throw new Error("server did not become ready");
}

function toMs(v: string): string {
  const m = /^([\d.]+)(us|ms|s)$/.exec(v);
  if (!m) return v;
  const n = Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
  return `${n.toFixed(2)} ms`;
}

async function wrk(name: string, url: string, headers: string[] = []): Promise<Result> {
  const args = ["wrk", `-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", ...headers.flatMap((h) => ["-H", h]), url];
  const p = Bun.spawn(args, { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(p.stdout).text();
  await p.exited;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p50 = /^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? "?";
  const p99 = /^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? "?";
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  return { name, rps, p50: toMs(p50), p99: toMs(p99), non2xx };
}

const dataDir = mkdtempSync(join(tmpdir(), "cofre-bench-"));
const key = seed(dataDir);
const port = freePort();
const base = `http://127.0.0.1:${port}`;
const server = Bun.spawn(["bun", join(import.meta.dir, "../src/main.ts"), "serve"], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    COFRE_DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    COFRE_RATE_LIMIT_PER_MINUTE: "1000000000",
  },
  stdout: "ignore",
  stderr: "inherit",
});

try {
  await waitReady(base);
  const ping = await fetch(`${base}/v1/ping`, { headers: { apikey: key } });
  if (ping.status !== 200) throw new Error(`GET /v1/ping answered ${ping.status}`);
  const results = [await wrk("GET /healthz", `${base}/healthz`), await wrk("GET /v1/ping (apikey)", `${base}/v1/ping`, [`apikey: ${key}`])];
  console.log(`\n${THREADS} wrk threads, ${CONNECTIONS} connections, ${seconds} s per route, Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores\n`);
  console.log("| route | requests/s | p50 | p99 |");
  console.log("|---|---:|---:|---:|");
  for (const r of results) console.log(`| ${r.name} | ${Math.round(r.rps).toLocaleString("en-US")} | ${r.p50} | ${r.p99} |`);
  for (const r of results) if (r.non2xx) console.log(`warning: ${r.name} had ${r.non2xx} non-2xx responses`);
} finally {
  server.kill("SIGTERM");
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
