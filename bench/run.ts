/**
 * `bun run bench [seconds=5]`: end-to-end throughput of the compiled executable.
 *
 * Starts `dist/cofre` (built when missing; `BENCH_REBUILD=1` forces it) on 127.0.0.1 with a fresh
 * data dir, and measures with wrk (2 threads, 50 connections, `seconds` per scenario): charge
 * creation, charge retrieval, payments list, wallet balance, payments stats over 1,000,000 stored
 * transactions, plus webhook fan-out and delivery (5 endpoints on a local receiver, deliveries/s
 * and commit-to-receipt latency). A bare `Bun.serve` JSON endpoint (`bench/lib/ceiling.ts`) is
 * measured in the same run as the reference ceiling. The server is restarted before each
 * scenario so the peak RSS (VmHWM from /proc) belongs to it; GET scenarios get one warm-up call
 * and scripted (POST) ones one unmeasured second of load
 * first (steady state: caches filled). Prints one Markdown table and writes
 * it as JSON to `bench/results/<timestamp>.json`. Needs `wrk` (`apt-get install -y wrk`).
 * Then the live Pix scenario against `cofre psp-sim` (bench/live.ts: live-create latency and Cofre's
 * own cost above the simulator, callback to paid; `BENCH_LIVE_CREATES` rounds, default 300) with
 * its targets and PASS/FAIL.
 * Then payouts (bench/payouts.ts): `POST /v1/payouts` in the sandbox against charge creation on
 * fresh servers (target: at least half the rate) and a live payout's own cost above psp-sim through
 * an `efi` connection (`BENCH_LIVE_PAYOUTS` rounds, default 200; target at most 2 ms p50), PASS/FAIL.
 * Then live cards (bench/cards.ts) against `cofre stripe-sim`: a live card create's own cost above
 * the simulator (`BENCH_LIVE_CARDS` rounds, default 200; target at most 2 ms p50) and webhook to
 * APPROVED (target under 100 ms p50), PASS/FAIL.
 * `BENCH_ONLY=core` runs only the ceiling, create, read and webhook scenarios (what bench/compare.ts
 * compares between two trees); `BENCH_JSON_OUT=<file>` writes the JSON there instead.
 * With COFRE_DATABASE_URL (or BENCH_PG=local: a durable throwaway cluster on this box) it
 * measures charge creation on PostgreSQL with BENCH_INSTANCES instances instead (bench/pg.ts).
 * Other engineers' scripts (bench/foundation.ts, bench/webhooks.ts, ...) measure their parts
 * in more depth.
 */
import { Database } from "bun:sqlite";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { api, cliInit, CofreServer, ensureBinary, freePort, loginAndKey, ROOT } from "./lib/server";
import { createChargeLua, wrk, type WrkResult } from "./lib/wrk";
import { formatLive, runLiveBench } from "./live";
import { formatPayouts, runLivePayouts, runSandboxPayouts } from "./payouts";
import { formatCards, runCardBench } from "./cards";

const SECONDS = Number(process.argv[2] ?? process.env.BENCH_SECONDS ?? 5);
const STATS_ROWS = Number(process.env.BENCH_STATS_ROWS ?? 1_000_000);
const FANOUT_ENDPOINTS = 5;
const FANOUT_CHARGES = 400;
const CORE_ONLY = process.env.BENCH_ONLY === "core";

interface Row {
  scenario: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  peakRssMiB: number | null;
  non2xx: number;
  note?: string;
  /** Server CPU per request in microseconds (utime + stime over the measured run), when known. */
  cpuUsPerReq?: number | null;
}
const rows: Row[] = [];
const rssMiB = (kib: number | null) => (kib === null ? null : Math.round((kib / 1024) * 10) / 10);
const push = (scenario: string, r: WrkResult, rss: number | null, note?: string) =>
  rows.push({
    scenario,
    rps: Math.round(r.rps),
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    peakRssMiB: rssMiB(rss),
    non2xx: r.non2xx + r.errors,
    note,
  });

await ensureBinary(process.env.BENCH_REBUILD === "1");

// ---- PostgreSQL (issue 17): COFRE_DATABASE_URL, or BENCH_PG=local for a durable cluster here ----
if (process.env.COFRE_DATABASE_URL || process.env.BENCH_PG === "local") {
  const instances = (process.env.BENCH_INSTANCES ?? "1,2,3").split(",").map(Number);
  let url = process.env.COFRE_DATABASE_URL;
  if (!url) {
    process.env.COFRE_PG_DURABLE = "1"; // production durability: fsync and synchronous_commit on
    const { pgDatabase } = await import("../test/support/pg");
    url = (await pgDatabase({ empty: true })).url;
  }
  const { runPgBench } = await import("./pg");
  const pgRows = await runPgBench(url, instances, SECONDS);
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(
    process.env.BENCH_JSON_OUT ?? join(ROOT, `bench/results/pg-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
    JSON.stringify({ instances, seconds: SECONDS, rows: pgRows }, null, 2),
  );
  process.exit(0);
}

// ---- reference ceiling: bare Bun.serve ---------------------------------------------------------
{
  const port = freePort();
  const p = Bun.spawn(["bun", join(ROOT, "bench/lib/ceiling.ts"), String(port)], {
    stdout: "ignore",
    stderr: "inherit",
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) break;
    } catch {}
    await Bun.sleep(20);
  }
  const r = await wrk(`http://127.0.0.1:${port}/`, { seconds: SECONDS });
  const status = await Bun.file(`/proc/${p.pid}/status`)
    .text()
    .catch(() => "");
  push("Bun.serve JSON (ceiling)", r, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) || null);
  p.kill();
  await p.exited;
}

// ---- Cofre ------------------------------------------------------------------------------------
const OPERATOR = "bench_operator_token_0123456789";
// The webhook scenario delivers to a receiver on 127.0.0.1: private targets must be allowed.
const server = new CofreServer({
  env: { COFRE_OPERATOR_TOKEN: OPERATOR, LOG_LEVEL: "warn", COFRE_WEBHOOK_ALLOW_PRIVATE: "1" },
});
const accountId = await cliInit(server, "bench@example.com", "bench password 123", "Bench");
await server.start();
const { testKey } = await loginAndKey(server.base, "bench@example.com", "bench password 123");
const auth = { apikey: testKey };

async function restart() {
  await server.kill("SIGTERM");
  await server.start();
}

async function scenario(name: string, path: string, opts: { lua?: string; note?: string } = {}) {
  await restart();
  // Warm-up, unmeasured: one call, so in-process caches (e.g. QR images of a listed page) hold
  // the steady state; for scripted writes one second of load, so the JIT has compiled the path.
  if (!opts.lua) await api(server.base, "GET", path, { key: testKey, timeoutMs: 60_000 });
  else await wrk(`${server.base}${path}`, { seconds: 1, headers: auth, lua: opts.lua });
  const cpu0 = await server.cpuMicros();
  const r = await wrk(`${server.base}${path}`, { seconds: SECONDS, headers: auth, lua: opts.lua });
  const cpu1 = await server.cpuMicros();
  push(name, r, await server.peakRssKiB(), opts.note);
  rows.at(-1)!.cpuUsPerReq =
    cpu0 !== null && cpu1 !== null && r.requests > 0 ? Math.round(((cpu1 - cpu0) / r.requests) * 10) / 10 : null;
}

// Charge creation: a unique Idempotency-Key per request (thread id + counter).
const createLua = createChargeLua(testKey, `bench-${Date.now()}`);
await scenario("POST /v1/pix/charges (create)", "/v1/pix/charges", {
  lua: createLua,
  note: "Idempotency-Key per request",
});

const charge = await api(server.base, "POST", "/v1/pix/charges", {
  key: testKey,
  headers: { "idempotency-key": `bench-one-${Date.now()}` },
  body: { amount: 1990 },
});
const chargeId: string | undefined = charge.body?.id;
if (chargeId) await scenario("GET /v1/charges/{id}", `/v1/charges/${chargeId}`);
// BENCH_LIST=1 adds the list and balance scenarios to `BENCH_ONLY=core` (bench/compare.ts passes it through).
if (!CORE_ONLY || process.env.BENCH_LIST === "1") {
  await scenario("GET /v1/payments (list, 20)", "/v1/payments?limit=20");
  await scenario("GET /v1/wallets/balance", "/v1/wallets/balance");
}

// ---- webhook fan-out and delivery ---------------------------------------------------------------
{
  await restart();
  const receivedAt: number[] = [];
  const createdAt = new Map<string, number>();
  const delays: number[] = [];
  const receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = (await req.json().catch(() => null)) as {
        type?: string;
        data?: { object?: { id?: string } };
      } | null;
      const t = performance.now();
      receivedAt.push(t);
      const c = body?.data?.object?.id ? createdAt.get(body.data.object.id) : undefined;
      if (c !== undefined) delays.push(t - c);
      return new Response("ok");
    },
  });
  for (let i = 0; i < FANOUT_ENDPOINTS; i++)
    await api(server.base, "POST", "/v1/webhooks/endpoints", {
      key: testKey,
      body: { url: `http://127.0.0.1:${receiver.port}/e${i}`, events: ["charge.created"] },
    });
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < FANOUT_CHARGES) {
        const i = next++;
        const before = performance.now();
        const r = await api(server.base, "POST", "/v1/pix/charges", {
          key: testKey,
          headers: { "idempotency-key": `bench-fan-${i}-${Date.now()}` },
          body: { amount: 1000 + i },
        });
        if (r.body?.id) createdAt.set(r.body.id, before);
      }
    }),
  );
  const expected = createdAt.size * FANOUT_ENDPOINTS;
  const deadline = performance.now() + 60_000;
  while (receivedAt.length < expected && performance.now() < deadline) await Bun.sleep(20);
  const elapsedS = ((receivedAt.at(-1) ?? performance.now()) - t0) / 1000;
  delays.sort((a, b) => a - b);
  const q = (p: number) =>
    Math.round((delays[Math.min(delays.length - 1, Math.floor(p * delays.length))] ?? NaN) * 100) / 100;
  rows.push({
    scenario: `webhook fan-out + delivery (${FANOUT_ENDPOINTS} endpoints)`,
    rps: Math.round(receivedAt.length / elapsedS),
    p50Ms: q(0.5),
    p99Ms: q(0.99),
    peakRssMiB: rssMiB(await server.peakRssKiB()),
    non2xx: expected - Math.min(expected, receivedAt.length),
    note: `deliveries/s; latency = charge request sent -> receiver got the event; ${receivedAt.length}/${expected} delivered`,
  });
  receiver.stop(true);
}

// ---- stats over 1,000,000 stored transactions --------------------------------------------------
if (!CORE_ONLY) {
  await server.kill("SIGTERM");
  const seeded = seedTransactions(join(server.dataDir, "cofre.db"), accountId, STATS_ROWS);
  await server.start();
  const r0 = await api(server.base, "GET", "/v1/payments/stats?days=30", { key: testKey });
  const total = r0.body?.totalTransactions;
  const r = await wrk(`${server.base}/v1/payments/stats?days=30`, { seconds: SECONDS, headers: auth });
  push(
    `GET /v1/payments/stats?days=30 (${STATS_ROWS.toLocaleString("en-US")} rows)`,
    r,
    await server.peakRssKiB(),
    `seeded in ${seeded} s; totalTransactions=${total}`,
  );
}
await server.kill("SIGTERM");
server.removeData();

// ---- live Pix against psp-sim (bench/live.ts) --------------------------------------------------
const live = CORE_ONLY ? null : await runLiveBench(Number(process.env.BENCH_LIVE_CREATES ?? 300));

// ---- payouts (bench/payouts.ts) ----------------------------------------------------------------
const payouts = CORE_ONLY
  ? null
  : {
      sandbox: await runSandboxPayouts(SECONDS),
      live: await runLivePayouts(Number(process.env.BENCH_LIVE_PAYOUTS ?? 200)),
    };

// ---- live cards against stripe-sim (bench/cards.ts) -------------------------------------------
const cards = CORE_ONLY ? null : await runCardBench(Number(process.env.BENCH_LIVE_CARDS ?? 200));

// ---- report ------------------------------------------------------------------------------------
const ceiling = rows[0]!.rps;
const table = [
  "| scenario | req/s | p50 ms | p99 ms | peak RSS MiB | vs ceiling | non-2xx |",
  "|---|---:|---:|---:|---:|---:|---:|",
  ...rows.map(
    (r) =>
      `| ${r.scenario} | ${r.rps} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.peakRssMiB ?? "-"} | ${(r.rps / ceiling).toFixed(3)} | ${r.non2xx} |`,
  ),
].join("\n");
console.log(
  `\nCofre bench: ${SECONDS} s per scenario, wrk 2 threads x 50 connections, ${navigator.hardwareConcurrency} cores\n`,
);
console.log(table);
for (const r of rows) if (r.note) console.log(`- ${r.scenario}: ${r.note}`);
if (live) {
  console.log(`\nLive Pix (psp-sim on loopback, mTLS; one request at a time; bench/live.ts):\n`);
  console.log(formatLive(live));
}
if (payouts) {
  console.log(`\nPayouts (bench/payouts.ts):\n`);
  console.log(formatPayouts(payouts.sandbox, payouts.live));
}
if (cards) {
  console.log(`\nLive cards (stripe-sim on loopback; one request at a time; bench/cards.ts):\n`);
  console.log(formatCards(cards));
}
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
const file =
  process.env.BENCH_JSON_OUT ?? join(ROOT, "bench/results", `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(
  file,
  JSON.stringify(
    {
      at: new Date().toISOString(),
      seconds: SECONDS,
      cores: navigator.hardwareConcurrency,
      bun: Bun.version,
      rows: rows.map((r) => ({ ...r, ratioToCeiling: r.rps / ceiling })),
      live,
      payouts,
      cards,
    },
    null,
    2,
  ),
);
console.log(`\nwritten ${file}`);

/**
 * Inserts `n` test-mode transactions of `accountId` straight into the database (server stopped),
 * spread over the last 30 days, 60% PAID via PIX; the aggregate triggers fire on each insert.
 * Returns the seconds it took.
 */
function seedTransactions(path: string, account: string, n: number): number {
  const t0 = performance.now();
  const db = new Database(path);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
  const ins = db.prepare(
    `insert into transactions (id, account_id, livemode, amount, currency, status, payment_methods, paid_with, origin, metadata, method_details, refunded_amount, paid_at, created_at, updated_at)
     values (?, ?, 0, ?, 'BRL', ?, '["PIX"]', ?, 'payments', '{}', '{}', 0, ?, ?, ?)`,
  );
  const now = Date.now();
  const span = 30 * 86_400_000;
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const created = now - Math.floor(((n - i) / n) * span);
      const paid = i % 5 < 3;
      ins.run(
        Bun.randomUUIDv7().replaceAll("-", ""),
        account,
        500 + (i % 9_500),
        paid ? "PAID" : i % 5 === 3 ? "WAITING_PAYMENT" : "EXPIRED",
        paid ? "PIX" : null,
        paid ? created + 30_000 : null,
        created,
        created,
      );
    }
  });
  for (let i = 0; i < n; i += 50_000) batch(i, Math.min(n, i + 50_000));
  db.close();
  return Math.round((performance.now() - t0) / 100) / 10;
}
