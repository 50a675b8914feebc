/**
 * Charges benchmark (a script, not a test): `bun bench/charges.ts [seconds=10] [log levels=info,warn]`.
 *
 * For each log level: starts `bun src/main.ts serve` on 127.0.0.1 with a fresh temporary data dir
 * (stdout to /dev/null), seeds one account with a test key straight into the database, and
 * measures with wrk (2 threads, 50 connections): `POST /v1/pix/charges` with a unique
 * `Idempotency-Key` per request (a wrk Lua script), then `GET /v1/charges/{id}` of one charge.
 * A bare `Bun.serve` JSON endpoint (`bench/lib/ceiling.ts`) is measured right before each run as
 * the reference ceiling of the moment, and the 1-minute load average is printed next to every
 * figure (the box is shared). Prints a Markdown table. Needs `wrk` (`apt-get install -y wrk`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireWrk, seedTestKey, waitReady } from "./lib/source";
import { freePort } from "./lib/server";

const seconds = Number(process.argv[2] ?? 10);
const levels = (process.argv[3] ?? "info,warn").split(",");
const CONNECTIONS = 50;
const THREADS = 2;

requireWrk();

/** 1-minute load average of the box (other engineers' jobs share it). */
function load(): number {
  try {
    return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
  } catch {
    return NaN;
  }
}

function toMs(v: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(v);
  if (!m) return NaN;
  return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
}

interface Result {
  name: string;
  level: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  requests: number;
  /** Server CPU (user + system, all threads) per request, microseconds. */
  cpuUs: number;
  load: number;
  ceiling: number;
}

async function wrk(url: string, headers: string[], script?: string) {
  const args = [
    "wrk",
    `-t${THREADS}`,
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
    "--latency",
    ...headers.flatMap((h) => ["-H", h]),
  ];
  if (script) args.push("-s", script);
  args.push(url);
  const p = Bun.spawn(args, { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(p.stdout).text();
  await p.exited;
  if (process.env.BENCH_DEBUG) console.log(out);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN),
    p50: toMs(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? "?"),
    p99: toMs(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? "?"),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
  };
}

/**
 * CPU seconds (user + system, every thread) the process `pid` has used so far, from
 * /proc/<pid>/stat (clock ticks of 10 ms). Per request it is steadier than requests/s on a shared
 * box: other processes' load slows the server but does not add to its own CPU time.
 */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Requests/s of a bare Bun.serve JSON endpoint, measured now (the ceiling of the moment). */
async function ceiling(): Promise<number> {
  const port = freePort();
  const p = Bun.spawn(["bun", join(import.meta.dir, "lib/ceiling.ts"), String(port)], {
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    await waitReady(`http://127.0.0.1:${port}/`);
    return (await wrk(`http://127.0.0.1:${port}/`, [])).rps;
  } finally {
    p.kill();
    await p.exited;
  }
}

/** wrk script: POST with a JSON body and an Idempotency-Key unique per thread and request. */
const LUA = `
local n = 0
function setup(thread) n = n + 1; thread:set("tid", n) end
local counter = 0
local body = '{"amount":1990,"description":"bench","customer":{"name":"Maria","document":"52998224725"}}'
local shown = 0
function response(status, headers, body)
  if status ~= 201 and shown < 2 and os.getenv("BENCH_DEBUG") then shown = shown + 1; print(status, body) end
end
function request()
  counter = counter + 1
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Idempotency-Key"] = "bench-" .. tostring(tid) .. "-" .. counter
  return wrk.format("POST", nil, nil, body)
end
`;

async function runLevel(level: string): Promise<Result[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "cofre-bench-charges-"));
  const script = join(dataDir, "post.lua");
  writeFileSync(script, LUA);
  const key = seedTestKey(dataDir);
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = Bun.spawn(["bun", join(import.meta.dir, "../src/main.ts"), "serve"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      COFRE_DATA_DIR: dataDir,
      COFRE_PUBLIC_URL: "https://pay.cofre.test",
      LOG_LEVEL: level,
      COFRE_RATE_LIMIT_PER_MINUTE: "1000000000",
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    await waitReady(`${base}/readyz`);
    const created = await fetch(`${base}/v1/pix/charges`, {
      method: "POST",
      headers: { apikey: key, "idempotency-key": "bench-seed-charge", "content-type": "application/json" },
      body: JSON.stringify({ amount: 1990 }),
    });
    if (created.status !== 201)
      throw new Error(`POST /v1/pix/charges answered ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    const out: Result[] = [];
    const measure = async (name: string, url: string, headers: string[], lua?: string) => {
      const c = await ceiling();
      const l = load();
      const cpuBefore = cpuSeconds(server.pid);
      const r = await wrk(url, headers, lua);
      const cpuUs = ((cpuSeconds(server.pid) - cpuBefore) * 1e6) / r.requests;
      out.push({ name, level, ...r, cpuUs, load: l, ceiling: c });
    };
    await measure(
      "POST /v1/pix/charges (unique Idempotency-Key)",
      `${base}/v1/pix/charges`,
      [`apikey: ${key}`],
      script,
    );
    await measure("GET /v1/charges/{id}", `${base}/v1/charges/${id}`, [`apikey: ${key}`]);
    return out;
  } finally {
    server.kill("SIGTERM");
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: Result[] = [];
for (const level of levels) results.push(...(await runLevel(level)));
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
console.log(
  `\n${THREADS} wrk threads, ${CONNECTIONS} connections, ${seconds} s per route, Bun ${Bun.version}, ${navigator.hardwareConcurrency} cores\n`,
);
console.log(
  "| route | LOG_LEVEL | requests/s | p50 | p99 | server CPU per request | load avg | Bun.serve ceiling | ratio |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
for (const r of results)
  console.log(
    `| ${r.name} | ${r.level} | ${fmt(r.rps)} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${Math.round(r.cpuUs)} us | ${r.load.toFixed(2)} | ${fmt(r.ceiling)} | ${(r.rps / r.ceiling).toFixed(3)} |`,
  );
for (const r of results) if (r.non2xx) console.log(`warning: ${r.name} (${r.level}) had ${r.non2xx} non-2xx responses`);
