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
import { requireWrk, seedTestKey, waitReady } from "./lib/source";
import { freePort } from "./lib/server";

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

requireWrk();




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
const key = seedTestKey(dataDir);
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
  await waitReady(`${base}/readyz`);
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
