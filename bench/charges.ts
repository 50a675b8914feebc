/**
 * Charges benchmark (a script, not a test): `bun bench/charges.ts [seconds]`.
 *
 * Starts `bun src/main.ts serve` on 127.0.0.1 with a fresh temporary data dir, seeds one account
 * with a test key straight into the database, and measures with wrk (2 threads, 50 connections,
 * default 10 s each): `POST /v1/pix/charges` with a unique `Idempotency-Key` per request (a wrk
 * Lua script), then `GET /v1/charges/{id}` of one charge. Prints requests/s, p50/p99 and the
 * count of non-2xx answers as a Markdown table. Needs `wrk` (`apt-get install -y wrk`).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accounts, apiKeys } from "../db/schema";
import { createDeps } from "../src/deps";
import { newId } from "../src/lib/ids";
import { randomBase64Url, sha256Hex } from "../src/lib/crypto";

const seconds = Number(process.argv[2] ?? 10);
const CONNECTIONS = 50;
const THREADS = 2;

if (!Bun.which("wrk")) {
  console.error("bench: wrk not found; install it with `apt-get install -y wrk`");
  process.exit(1);
}

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

interface Result {
  name: string;
  rps: number;
  p50: string;
  p99: string;
  non2xx: number;
}

async function wrk(name: string, url: string, headers: string[], script?: string): Promise<Result> {
  const args = ["wrk", `-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", ...headers.flatMap((h) => ["-H", h])];
  if (script) args.push("-s", script);
  args.push(url);
  const p = Bun.spawn(args, { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(p.stdout).text();
  await p.exited;
  if (process.env.BENCH_DEBUG) console.log(out);
  return {
    name,
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50: toMs(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? "?"),
    p99: toMs(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? "?"),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
  };
}

/** wrk script: POST with a JSON body and an Idempotency-Key unique per thread and request. */
const LUA = `
local threads = {}
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

const dataDir = mkdtempSync(join(tmpdir(), "cofre-bench-charges-"));
const script = join(dataDir, "post.lua");
writeFileSync(script, LUA);
const key = seed(dataDir);
const port = freePort();
const base = `http://127.0.0.1:${port}`;
const server = Bun.spawn(["bun", join(import.meta.dir, "../src/main.ts"), "serve"], {
  env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", COFRE_DATA_DIR: dataDir, COFRE_PUBLIC_URL: "https://pay.cofre.test", LOG_LEVEL: "info", COFRE_RATE_LIMIT_PER_MINUTE: "1000000000" },
  stdout: "ignore",
  stderr: "inherit",
});

try {
  await waitReady(base);
  const created = await fetch(`${base}/v1/pix/charges`, {
    method: "POST",
    headers: { apikey: key, "idempotency-key": "bench-seed-charge", "content-type": "application/json" },
    body: JSON.stringify({ amount: 1990 }),
  });
  if (created.status !== 201) throw new Error(`POST /v1/pix/charges answered ${created.status}: ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  const results = [
    await wrk("POST /v1/pix/charges (unique Idempotency-Key)", `${base}/v1/pix/charges`, [`apikey: ${key}`], script),
    await wrk("GET /v1/charges/{id}", `${base}/v1/charges/${id}`, [`apikey: ${key}`]),
  ];
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
