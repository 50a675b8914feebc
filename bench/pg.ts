/**
 * Charge creation on PostgreSQL with 1..N instances (issue 17), run by `bun run bench` when
 * COFRE_DATABASE_URL is set (the database must be empty or a Cofre database; it is migrated), or
 * with BENCH_PG=local on a throwaway cluster of this box started durable (fsync,
 * synchronous_commit and full-page writes on, as in production).
 *
 *   COFRE_DATABASE_URL=postgres://cofre@db:5432/cofre BENCH_INSTANCES=1,2,3 bun run bench 10
 *   BENCH_PG=local bun run bench 10
 *
 * Per row: N `dist/cofre serve` processes on the same database, one wrk per instance (48
 * connections in all, split between them; a unique Idempotency-Key per request), `seconds` of
 * load after one unmeasured second. Reported: creates/s (all instances), the worst instance's p99,
 * errors (non-2xx and socket), and the CPU each side used per create: every Cofre process
 * together, and every `postgres` process of this box (0 when the database runs elsewhere). From
 * the 1-instance costs it writes down what a deployment on separate 2-core machines would reach
 * (three Cofre machines and one database machine), the way docs/performance.md explains.
 */
import { readdirSync } from "node:fs";
import { api, cliInit, CofreServer, loginAndKey } from "./lib/server";
import { createChargeLua, wrk, type WrkResult } from "./lib/wrk";

/** One measured row. */
export interface PgBenchRow {
  instances: number;
  createsPerSecond: number;
  p99Ms: number;
  errors: number;
  /** Microseconds of CPU per create, all Cofre processes together. */
  cofreUsPerCreate: number;
  /** Microseconds of CPU per create, every `postgres` process of this box together. */
  postgresUsPerCreate: number;
}

const SECRETS_KEY = Buffer.alloc(32, 7).toString("base64");
const CONNECTIONS = 48;

/** Microseconds of CPU every process named `postgres` on this box has used so far. */
async function postgresCpuMicros(): Promise<number> {
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    const stat = await Bun.file(`/proc/${pid}/stat`)
      .text()
      .catch(() => "");
    if (!stat.includes("(postgres)")) continue;
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks * 10_000;
}

/** Runs one row: `n` instances on `url` for `seconds`. */
async function row(url: string, n: number, seconds: number): Promise<PgBenchRow> {
  const env = { COFRE_DATABASE_URL: url, COFRE_SECRETS_KEY: SECRETS_KEY, COFRE_DATABASE_POOL: "20", LOG_LEVEL: "warn" };
  const servers = Array.from({ length: n }, () => new CofreServer({ env }));
  const email = `pgbench-${n}-${Date.now()}@example.com`;
  await cliInit(servers[0]!, email, "bench password 123", "Bench PG");
  try {
    await Promise.all(servers.map((s) => s.start(30_000)));
    const { testKey } = await loginAndKey(servers[0]!.base, email, "bench password 123");
    const probe = await api(servers[n - 1]!.base, "GET", "/v1/charges?limit=1", { key: testKey });
    if (probe.status !== 200) throw new Error(`the last instance refused the key: ${probe.status}`);
    const load = (secs: number, tag: string) =>
      Promise.all(
        servers.map((s, i) =>
          wrk(`${s.base}/v1/pix/charges`, {
            seconds: secs,
            threads: 1,
            connections: Math.ceil(CONNECTIONS / n),
            lua: createChargeLua(testKey, `pgbench-${tag}${i}`),
          }),
        ),
      );
    await load(1, `warm${Date.now()}-`);
    const cofre0 = await Promise.all(servers.map((s) => s.cpuMicros()));
    const pg0 = await postgresCpuMicros();
    const results: WrkResult[] = await load(seconds, `run${Date.now()}-`);
    const cofre1 = await Promise.all(servers.map((s) => s.cpuMicros()));
    const pg1 = await postgresCpuMicros();
    const creates = results.reduce((s, r) => s + r.requests - r.non2xx, 0);
    const cofreUs = cofre1.reduce<number>((s, c, i) => s + (c ?? 0) - (cofre0[i] ?? 0), 0);
    return {
      instances: n,
      createsPerSecond: Math.round(results.reduce((s, r) => s + r.rps, 0)),
      p99Ms: Math.max(...results.map((r) => r.p99Ms)),
      errors: results.reduce((s, r) => s + r.non2xx + r.errors, 0),
      cofreUsPerCreate: creates > 0 ? Math.round(cofreUs / creates) : NaN,
      postgresUsPerCreate: creates > 0 ? Math.round((pg1 - pg0) / creates) : NaN,
    };
  } finally {
    await Promise.all(servers.map((s) => s.kill("SIGTERM")));
    for (const s of servers) s.removeData();
  }
}

/**
 * What separate 2-core machines would reach, from the 1-instance costs: each Cofre machine
 * 2 s of CPU per second / its CPU per create, the database machine likewise; three Cofre
 * machines in front of one database reach the smaller of the two.
 */
export function projection(
  r: PgBenchRow,
  dbCores = 2,
): { perCofreMachine: number; database: number; threeNodes: number } {
  const perCofreMachine = Math.round(2e6 / r.cofreUsPerCreate);
  const database = r.postgresUsPerCreate > 0 ? Math.round((dbCores * 1e6) / r.postgresUsPerCreate) : Infinity;
  return { perCofreMachine, database, threeNodes: Math.min(3 * perCofreMachine, database) };
}

/** Runs every row of `instances` on `url`; prints the table and the projection; returns the rows. */
export async function runPgBench(url: string, instances: number[], seconds: number): Promise<PgBenchRow[]> {
  const migrator = new CofreServer({ env: { COFRE_DATABASE_URL: url } });
  const migrated = await migrator.cli(["migrate"]);
  migrator.removeData();
  if (migrated.code !== 0) throw new Error(`cofre migrate failed: ${migrated.stderr}`);
  const rows: PgBenchRow[] = [];
  for (const n of instances) rows.push(await row(url, n, seconds));
  console.log(`\nCharge creation on PostgreSQL, ${seconds} s per row, ${CONNECTIONS} connections\n`);
  console.log("| instances | creates/s | p99 ms | errors | Cofre CPU us/create | PostgreSQL CPU us/create |");
  console.log("|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.instances} | ${r.createsPerSecond} | ${r.p99Ms.toFixed(1)} | ${r.errors} | ${r.cofreUsPerCreate} | ${r.postgresUsPerCreate || "n/a (remote)"} |`,
    );
  const one = rows.find((r) => r.instances === 1);
  if (one) {
    const p = projection(one);
    console.log(
      `\nFrom the 1-instance costs, on separate 2-core machines: one Cofre machine ~${p.perCofreMachine} creates/s; ` +
        `a 2-core PostgreSQL machine ~${p.database} creates/s; three Cofre machines and one database ~${p.threeNodes} creates/s` +
        ` (an 8-core database: ~${projection(one, 8).threeNodes}).`,
    );
  }
  return rows;
}
