/**
 * The test clock's 2-day advance (src/jobs/advance.ts) on an empty database and after real work
 * (issue 25 §3), on this run's backend: SQLite by default, PostgreSQL with COFRE_TEST_PG=1 (a
 * throwaway cluster, test/support/pg.ts, as the tests get it).
 *
 *   bun bench/clock-advance.ts [rounds=2] [charges=1200]
 *   COFRE_TEST_PG=1 bun bench/clock-advance.ts
 *
 * Empty: a fresh harness (every job group registered, nothing queued but the recurring jobs), one
 * 2-day advance, then a second one. Loaded: one account with a 1-hour settlement delay, `charges`
 * Pix charges of which 5/6 are paid (1,000 of 1,200), 250 of the paid ones refunded (sandbox: two
 * steps each), and an endpoint whose deliveries of `charge.paid` fail with 503 for 250 of them
 * (a second account: retried 13 times within 2 days); then one 2-day advance. Only the advances
 * are timed (advanceClock directly, as the HTTP helper calls it). Prints one line per advance:
 * ms, steps, jobs, the CPU this process and its PostgreSQL cluster used meanwhile, and the load
 * average when it started.
 */
import { readdirSync, readFileSync } from "node:fs";
import "../test/support/pg-preload";
import { TEST_PG } from "../test/support/backend";
import { createHarness, type Harness, type SeededAccount } from "../test/support/harness";
import { configureWebhookRuntime } from "../src/domain/webhooks/runtime";
import { advanceClock } from "../src/jobs/advance";
import { pgOf } from "../test/support/backend";

const TWO_DAYS = 2 * 86_400;
const rounds = Number(process.argv[2] ?? 2);
const charges = Number(process.argv[3] ?? 1200);
const backend = TEST_PG ? "postgres" : "sqlite";
let seq = 0;

/**
 * Microseconds of CPU used so far by the cluster whose postmaster is `pm`: it and its children (backends,
 * walwriter...).
 */
function clusterCpuMicros(pm: number): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let stat = "";
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pid) !== pm && Number(f[1]) !== pm) continue;
    ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks * 10_000;
}

/** The postmaster pid of the harness's PostgreSQL cluster (null on SQLite). */
async function postmasterOf(h: Harness): Promise<number | null> {
  if (!TEST_PG) return null;
  const [{ data_directory: data }] = await pgOf(h.deps).sql`show data_directory`;
  return Number(readFileSync(`${data}/postmaster.pid`, "utf8").split("\n")[0]);
}

const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

async function ok(h: Harness, method: string, path: string, key: string, body?: unknown) {
  const r = await h.call(method, path, { key, body });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.body;
}

async function paidCharge(h: Harness, a: SeededAccount, pay: boolean): Promise<string> {
  const p = await ok(h, "POST", "/v1/payments", a.testKey, {
    amount: 1000,
    paymentMethods: ["PIX"],
    idempotencyKey: `bench-key-${++seq}`,
  });
  if (pay) await ok(h, "POST", `/v1/test_helpers/charges/${p.id}/pay`, a.testKey, {});
  return p.id;
}

/**
 * BENCH_STATEMENTS=1 on PostgreSQL: logs every statement of the cluster during the advance
 * (log_statement = all) and prints the statements counted by their first words, and the total.
 */
const COUNT = TEST_PG && process.env.BENCH_STATEMENTS === "1";

async function statementLog(h: Harness, on: boolean): Promise<{ file: string; size: number }> {
  const sql = pgOf(h.deps).sql;
  const [{ data_directory: data }] = await sql`show data_directory`;
  await sql.unsafe(`alter system set log_statement = '${on ? "all" : "none"}'`);
  await sql`select pg_reload_conf()`;
  await Bun.sleep(200);
  const file = `${data.slice(0, data.lastIndexOf("/"))}/log`;
  return { file, size: Bun.file(file).size };
}

function countStatements(file: string, from: number): void {
  const text = readFileSync(file, "utf8").slice(from);
  const counts = new Map<string, number>();
  let total = 0;
  for (const m of text.matchAll(/LOG: {2}(?:statement|execute [^:]*): ([^\n]*)/g)) {
    const words = m[1]!.replace(/\s+/g, " ").trim().slice(0, 70);
    counts.set(words, (counts.get(words) ?? 0) + 1);
    total++;
  }
  for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`${String(n).padStart(7)}  ${k}`);
  console.log(`${String(total).padStart(7)}  statements in all`);
}

async function timed(label: string, h: Harness) {
  const log = COUNT ? await statementLog(h, true) : null;
  const l = load();
  const cpu = process.cpuUsage();
  const pm = await postmasterOf(h);
  const pgCpu = pm ? clusterCpuMicros(pm) : 0;
  const t = performance.now();
  const r = await advanceClock(h.clock, h.deps.jobs, TWO_DAYS);
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const cpuText = `cpu bun ${((used.user + used.system) / 1000).toFixed(0)} ms${pm ? `, postgres ${((clusterCpuMicros(pm) - pgCpu) / 1000).toFixed(0)} ms` : ""}`;
  if (log) {
    await statementLog(h, false);
    countStatements(log.file, log.size);
  }
  console.log(
    `${backend}\t${label}\t${ms.toFixed(0)} ms\tsteps ${r.steps}\tjobs ${r.jobs}${r.capped ? " (capped)" : ""}\t${cpuText}\tload ${l}`,
  );
  return ms;
}

async function empty() {
  const h = createHarness({ testClock: true });
  await h.seedAccount();
  await timed("empty, first", h);
  await timed("empty, second", h);
  await h.deps.jobs.stop();
}

async function loaded() {
  const h = createHarness({ testClock: true });
  const a = await h.seedAccount({ settings: { settlementDelaySeconds: 3600 } });
  const b = await h.seedAccount({ settings: { settlementDelaySeconds: 3600 } });
  configureWebhookRuntime(h.deps, {
    random: () => 0.5,
    lookup: async () => [{ address: "93.184.216.34", family: 4 }],
    fetch: async () => new Response("down", { status: 503 }),
  });
  await ok(h, "POST", "/v1/webhooks/endpoints", b.testKey, {
    url: "https://hooks.example.com/paid",
    events: ["charge.paid"],
  });
  const failing = Math.round(charges * (250 / 1200));
  const refunds = Math.round(charges * (250 / 1200));
  const paid = Math.round(charges * (1000 / 1200));
  const t = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < failing; i++) await paidCharge(h, b, true);
  for (let i = failing; i < charges; i++) ids.push(await paidCharge(h, a, i < paid));
  for (const id of ids.slice(0, refunds))
    await ok(h, "POST", `/v1/payments/${id}/refund`, a.testKey, { idempotencyKey: `bench-key-${++seq}` });
  // Work done by the requests themselves (first delivery attempts, immediate steps) runs first.
  await h.deps.jobs.drain();
  console.log(
    `${backend}\tsetup\t${(performance.now() - t).toFixed(0)} ms (${charges} charges, ${paid} paid, ${refunds} refunds, ${failing} failing deliveries)`,
  );
  await timed("loaded", h);
  await h.deps.jobs.stop();
}

for (let r = 0; r < rounds; r++) {
  await empty();
  await loaded();
}
process.exit(0);
