/**
 * `bun bench/dashboard.ts [rows=1000000]`: the dashboard's API calls over a large account (issue 15
 * "usable with 1,000,000 stored transactions"). Builds a Cofre in-process on a temporary SQLite
 * file, bulk-inserts `rows` transactions of one account straight into SQLite (aggregate triggers
 * on; the same generator as bench/payments.ts, 400 days, mixed currencies, methods and statuses),
 * then times each call the home, payments list and payment detail pages make through `app.handle`
 * (routing, auth, JSON included): 20 runs each after one warm-up; prints p50 / p99 / max in ms.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app";
import { createDeps } from "../src/deps";
import { accounts, apiKeys } from "../db/schema";
import { sha256Hex } from "../src/lib/crypto";
import { sqliteDbOf } from "../src/store/sqlite";

const ROWS = Number(process.argv[2] ?? 1_000_000);
const RUNS = 20;
const dir = mkdtempSync(join(tmpdir(), "cofre-bench-dashboard-"));
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

const t0 = performance.now();
const ins = sqlite.prepare(
  `insert into transactions (id, account_id, livemode, amount, currency, status, payment_methods, paid_with, origin, customer_name, customer_document, metadata, method_details, refunded_amount, paid_at, created_at, updated_at)
   values (?, ?, 0, ?, ?, ?, ?, ?, 'payments', ?, ?, '{}', '{}', ?, ?, ?, ?)`,
);
let seed = 42;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const span = 400 * 86_400_000;
let someId = "";
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
    const id = Bun.randomUUIDv7().replaceAll("-", "");
    if (i === Math.floor(ROWS / 2)) someId = id;
    const doc = String(10_000_000_000 + (i % 50_000));
    ins.run(
      id,
      accountId,
      amount,
      currency,
      status,
      JSON.stringify([method]),
      paid ? method : null,
      `Cliente ${i}`,
      doc,
      status === "REFUNDED" ? amount : 0,
      paidAt,
      created,
      created,
    );
  }
});
for (let i = 0; i < ROWS; i += 50_000) batch(i, Math.min(ROWS, i + 50_000));
const insertS = (performance.now() - t0) / 1000;
sqlite.exec("ANALYZE");

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
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    p50: r(ms[Math.floor(RUNS / 2)]!),
    p99: r(ms[Math.min(RUNS - 1, Math.ceil(RUNS * 0.99) - 1)]!),
    max: r(ms.at(-1)!),
    sample,
  };
}

const lines = [
  `Dashboard API calls over ${ROWS.toLocaleString("en-US")} transactions of one account (in-process \`app.handle\`, ${RUNS} runs each; bulk insert ${insertS.toFixed(1)} s):`,
  "",
  "| page | call | p50 ms | p99 ms | max ms |",
  "|---|---|---|---|---|",
];
const CALLS: [string, string][] = [
  ["home", "/v1/wallets/balance"],
  ["home", "/v1/payments/stats?days=30"],
  ["home", "/v1/payments/metrics?days=30"],
  ["payments", "/v1/payments?limit=50"],
  ["payments", "/v1/payments?limit=50&page=200"],
  ["payments", "/v1/payments?limit=50&status=WAITING_PAYMENT"],
  ["payments", "/v1/payments?limit=50&paymentMethod=BOLETO"],
  ["payments", "/v1/payments?limit=50&startDate=2026-01-01&endDate=2026-01-31"],
  ["payments", `/v1/payments?limit=50&search=ch_${someId}`],
  ["payments", "/v1/payments?limit=50&search=10000012345"],
  ["detail", `/v1/payments/${someId}`],
  ["detail", `/v1/payments/${someId}/refunds`],
  ["detail", `/v1/webhooks/deliveries?transactionId=${someId}&limit=100`],
];
for (const [page, path] of CALLS) {
  const r = await time(path);
  lines.push(`| ${page} | \`GET ${path.replace(someId, "<id>")}\` | ${r.p50} | ${r.p99} | ${r.max} |`);
}
console.log(lines.join("\n"));
rmSync(dir, { recursive: true, force: true });
process.exit(0);
