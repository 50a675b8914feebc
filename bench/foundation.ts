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
import { wrk, type WrkResult } from "./lib/wrk";

const seconds = Number(process.argv[2] ?? 10);
const CONNECTIONS = 50;
const THREADS = 2;

requireWrk();

interface Result extends WrkResult {
  name: string;
}

async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Result> {
  return { name, ...(await wrk(url, { seconds, connections: CONNECTIONS, threads: THREADS, headers })) };
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

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
  const results = [
    await measure("GET /healthz", `${base}/healthz`),
    await measure("GET /v1/ping (apikey)", `${base}/v1/ping`, { apikey: key }),
  ];
  console.log(
    `\n${THREADS} wrk threads, ${CONNECTIONS} connections, ${seconds} s per route, Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores\n`,
  );
  console.log("| route | requests/s | p50 | p99 |");
  console.log("|---|---:|---:|---:|");
  for (const r of results)
    console.log(`| ${r.name} | ${Math.round(r.rps).toLocaleString("en-US")} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} |`);
  for (const r of results)
    if (r.non2xx + r.errors)
      console.log(`warning: ${r.name} had ${r.non2xx} non-2xx responses and ${r.errors} socket errors`);
} finally {
  server.kill("SIGTERM");
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
