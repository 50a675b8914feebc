/**
 * `bun bench/payments.ts [rows=1000000]`: cost of `GET /v1/payments/stats` and `/metrics` over
 * a large account. Builds a Cofre in-process on a temporary SQLite file, bulk-inserts `rows`
 * transactions of one account straight into SQLite (the aggregate triggers fire on each insert,
 * so the insert rate shows their write cost), spread over 400 days with mixed currencies, methods,
 * statuses and times to pay, then times each call through `app.handle` (routing, auth, JSON
 * included): 30 runs per window after one warm-up; prints p50 / p99 / max in ms and the target
 * (< 200 ms per call). Set BENCH_NO_TRIGGERS=1 to insert without triggers and rebuild once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app";
import { createDeps } from "../src/deps";
import { rebuildPaymentAggregates } from "../src/store/sqlite/stats-aggregates";
import { accounts, apiKeys } from "../db/schema";
import { sha256Hex } from "../src/lib/crypto";
import { sqliteDbOf } from "../src/store/sqlite";

const ROWS = Number(process.argv[2] ?? 1_000_000);
const RUNS = 30;
const dir = mkdtempSync(join(tmpdir(), "cofre-bench-payments-"));
const deps = createDeps({ dataDir: dir, config: { logLevel: "silent", rateLimitPerMinute: 0 } });
const app = createApp(deps);
const sqlite = sqliteDbOf(deps.store).$client;

const now = Date.now();
const accountId = "acct_bench";
const key = `ak_test_${"bench".repeat(7).slice(0, 32)}`;
sqliteDbOf(deps.store).insert(accounts).values({ id: accountId, name: "Bench", createdAt: now }).run();
sqliteDbOf(deps.store)
  .insert(apiKeys)
  .values({
    id: "ak_bench",
    accountId,
    mode: "test",
    fingerprint: sha256Hex(key),
    prefix: key.slice(0, 12),
    createdAt: now,
  })
  .run();

const CURRENCIES = ["BRL", "BRL", "BRL", "BRL", "BRL", "BRL", "BRL", "BRL", "EUR", "USDT"];
const METHODS: Record<string, string[]> = {
  BRL: ["PIX", "PIX", "PIX", "CREDIT_CARD", "BOLETO"],
  EUR: ["MULTIBANCO", "MBWAY", "CREDIT_CARD"],
  USDT: ["CRYPTO"],
};
const STATUSES = [
  "PAID",
  "PAID",
  "PAID",
  "PAID",
  "PAID",
  "PAID",
  "EXPIRED",
  "EXPIRED",
  "WAITING_PAYMENT",
  "REFUSED",
  "CANCELLED",
  "REFUNDED",
];

const noTriggers = process.env.BENCH_NO_TRIGGERS === "1";
if (noTriggers)
  for (const { name } of sqlite
    .query("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'payment_stats_%'")
    .all() as { name: string }[])
    sqlite.exec(`DROP TRIGGER IF EXISTS ${name}`);
const t0 = performance.now();
const ins = sqlite.prepare(
  `insert into transactions (id, account_id, livemode, amount, currency, status, payment_methods, paid_with, origin, metadata, method_details, refunded_amount, paid_at, created_at, updated_at)
   values (?, ?, 0, ?, ?, ?, ?, ?, 'payments', '{}', '{}', ?, ?, ?, ?)`,
);
let seed = 42;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const span = 400 * 86_400_000;
const batch = sqlite.transaction((from: number, to: number) => {
  for (let i = from; i < to; i++) {
    const created = now - Math.floor(((ROWS - i) / ROWS) * span);
    const currency = CURRENCIES[Math.floor(rnd() * CURRENCIES.length)]!;
    const methods = METHODS[currency]!;
    const method = methods[Math.floor(rnd() * methods.length)]!;
    let status = STATUSES[Math.floor(rnd() * STATUSES.length)]!;
    if (status === "PAID" && method === "CREDIT_CARD") status = "APPROVED";
    const paid = status === "PAID" || status === "APPROVED" || status === "REFUNDED";
    const amount = 100 + Math.floor(rnd() * 100_000);
    const paidAt = paid ? created + Math.floor(rnd() * 3_600_000) : null;
    ins.run(
      Bun.randomUUIDv7().replaceAll("-", ""),
      accountId,
      amount,
      currency,
      status,
      JSON.stringify([method]),
      paid ? method : null,
      status === "REFUNDED" ? amount : 0,
      paidAt,
      created,
      created,
    );
  }
});
for (let i = 0; i < ROWS; i += 50_000) batch(i, Math.min(ROWS, i + 50_000));
const insertS = (performance.now() - t0) / 1000;
let rebuildS = 0;
if (noTriggers) {
  const r0 = performance.now();
  rebuildPaymentAggregates(sqliteDbOf(deps.store));
  rebuildS = (performance.now() - r0) / 1000;
}
sqlite.exec("ANALYZE");
const aggRows = (sqlite.query("select count(*) as n from payment_daily_stats").get() as { n: number }).n;
const histRows = (sqlite.query("select count(*) as n from payment_pay_time_hist").get() as { n: number }).n;
const monthRows = (sqlite.query("select count(*) as n from payment_pay_time_hist_monthly").get() as { n: number }).n;

async function time(path: string): Promise<{ p50: number; p99: number; max: number; sample: any }> {
  const call = async () => {
    const res = await app.handle(new Request(`http://localhost${path}`, { headers: { apikey: key } }));
    if (res.status !== 200) throw new Error(`${path} -> ${res.status} ${await res.text()}`);
    return res.json();
  };
  const sample = await call();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    await call();
    ms.push(performance.now() - s);
  }
  ms.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    p50: r(ms[Math.floor(RUNS / 2)]!),
    p99: r(ms[Math.min(RUNS - 1, Math.ceil(RUNS * 0.99) - 1)]!),
    max: r(ms.at(-1)!),
    sample,
  };
}

const lines = [
  `Payments stats/metrics over ${ROWS.toLocaleString("en-US")} transactions of one account (400 days; in-process \`app.handle\`, ${RUNS} runs each):`,
  "",
  `- bulk insert ${noTriggers ? "without triggers" : "with the aggregate triggers"}: ${insertS.toFixed(1)} s (${Math.round(ROWS / insertS).toLocaleString("en-US")} rows/s)${noTriggers ? `; one-time rebuild ${rebuildS.toFixed(1)} s` : ""}; aggregate rows: ${aggRows.toLocaleString("en-US")} daily cells, ${histRows.toLocaleString("en-US")} daily and ${monthRows.toLocaleString("en-US")} monthly histogram cells`,
  "",
  "| call | p50 ms | p99 ms | max ms | result |",
  "|---|---|---|---|---|",
];
for (const path of [
  "/v1/payments/stats",
  "/v1/payments/stats?days=30",
  "/v1/payments/stats?days=366",
  "/v1/payments/stats?days=3660",
  "/v1/payments/metrics",
  "/v1/payments/metrics?days=366&currency=BRL",
  "/v1/payments/metrics?days=3660",
]) {
  const r = await time(path);
  const note =
    "totalTransactions" in r.sample
      ? `total=${r.sample.totalTransactions}`
      : `created=${r.sample.created.count}, median=${r.sample.medianTimeToPaySeconds}s`;
  lines.push(`| \`GET ${path}\` | ${r.p50} | ${r.p99} | ${r.max} | ${note} |`);
}
lines.push("", "Target: < 200 ms per call.");
console.log(lines.join("\n"));
// Leave the database open (request-log writers may still flush); the process exit closes it.
rmSync(dir, { recursive: true, force: true });
process.exit(0);
