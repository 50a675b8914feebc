/**
 * `bun bench/compare.ts <old-ref> [rounds=3] [seconds=5]`: the storage port's speed gate (issue 16).
 *
 * Builds the executable of `<old-ref>` (a throwaway git worktree, `bun install --frozen-lockfile`,
 * `bun run build`) and of this tree, then runs `bench/run.ts` with `BENCH_ONLY=core` against each,
 * alternating the order every round (old,new / new,old / ...) so both see the same minutes of the
 * machine. Each run measures the bare `Bun.serve` ceiling in the same minutes, so the compared
 * figures are ratios to it: charge create / ceiling, charge read / ceiling, and webhook
 * deliveries per second, plus the server's CPU time per create and per read (from /proc; steadier
 * than req/s when wrk shares the cores); with `BENCH_LIST=1` also the payments list and the wallet balance.
 * Prints per-round figures, the medians of each tree and the new tree's
 * change in percent (the gate: within 5%), and writes them to `bench/results/compare-<at>.json`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib/server";

const [oldRef, roundsArg, secondsArg] = process.argv.slice(2);
if (!oldRef) {
  console.error("usage: bun bench/compare.ts <old-ref> [rounds=3] [seconds=5]");
  process.exit(2);
}
const ROUNDS = Number(roundsArg ?? 3);
const SECONDS = Number(secondsArg ?? 5);

async function sh(cmd: string[], cwd: string): Promise<void> {
  const p = Bun.spawn(cmd, { cwd, stdout: "ignore", stderr: "inherit" });
  if ((await p.exited) !== 0) throw new Error(`${cmd.join(" ")} failed in ${cwd}`);
}

interface Figures {
  create: number;
  read: number;
  deliveries: number;
  ceiling: number;
  /** Server CPU per create / per read, microseconds (steadier than req/s here). */
  createCpuUs: number;
  readCpuUs: number;
  /** With BENCH_LIST=1: payments list (20) and wallet balance, ratio to the ceiling and server CPU per request (us); NaN otherwise. */
  list: number;
  balance: number;
  listCpuUs: number;
  balanceCpuUs: number;
}

async function measure(binary: string, label: string, round: number): Promise<Figures> {
  const out = join(tmp, `${label}-${round}.json`);
  const p = Bun.spawn(["bun", join(ROOT, "bench/run.ts"), String(SECONDS)], {
    cwd: ROOT,
    env: { ...process.env, BENCH_BINARY: binary, BENCH_ONLY: "core", BENCH_JSON_OUT: out },
    stdout: "ignore",
    stderr: "inherit",
  });
  if ((await p.exited) !== 0) throw new Error(`bench/run.ts failed for ${label}`);
  const rows = (
    JSON.parse(readFileSync(out, "utf8")) as {
      rows: { scenario: string; rps: number; ratioToCeiling: number; cpuUsPerReq?: number | null }[];
    }
  ).rows;
  const find = (prefix: string) =>
    rows.find((r) => r.scenario.startsWith(prefix)) ?? { rps: NaN, ratioToCeiling: NaN, cpuUsPerReq: NaN };
  return {
    ceiling: find("Bun.serve").rps,
    create: find("POST /v1/pix/charges").ratioToCeiling,
    read: find("GET /v1/charges/").ratioToCeiling,
    deliveries: find("webhook fan-out").rps,
    createCpuUs: find("POST /v1/pix/charges").cpuUsPerReq ?? NaN,
    readCpuUs: find("GET /v1/charges/").cpuUsPerReq ?? NaN,
    list: find("GET /v1/payments (list").ratioToCeiling,
    balance: find("GET /v1/wallets/balance").ratioToCeiling,
    listCpuUs: find("GET /v1/payments (list").cpuUsPerReq ?? NaN,
    balanceCpuUs: find("GET /v1/wallets/balance").cpuUsPerReq ?? NaN,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const tmp = mkdtempSync(join(tmpdir(), "cofre-compare-"));
const oldTree = join(tmp, "old");
try {
  await sh(["git", "worktree", "add", "--detach", "-f", oldTree, oldRef], ROOT);
  await sh(["bun", "install", "--frozen-lockfile"], oldTree);
  await sh(["bun", "run", "build"], oldTree);
  await sh(["bun", "run", "build"], ROOT);
  const bins = { old: join(oldTree, "dist/cofre"), new: join(ROOT, "dist/cofre") };
  const results: Record<"old" | "new", Figures[]> = { old: [], new: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order: ("old" | "new")[] = round % 2 ? ["new", "old"] : ["old", "new"];
    for (const label of order) {
      const f = await measure(bins[label], label, round);
      results[label].push(f);
      console.log(
        `round ${round + 1} ${label}: create/ceiling ${f.create.toFixed(3)}, read/ceiling ${f.read.toFixed(3)}, deliveries/s ${Math.round(f.deliveries)}, CPU/create ${f.createCpuUs} us, CPU/read ${f.readCpuUs} us (ceiling ${Math.round(f.ceiling)} req/s)`,
      );
      if (!Number.isNaN(f.list))
        console.log(
          `round ${round + 1} ${label}: list/ceiling ${f.list.toFixed(3)}, balance/ceiling ${f.balance.toFixed(3)}, CPU/list ${f.listCpuUs} us, CPU/balance ${f.balanceCpuUs} us`,
        );
    }
  }
  const med = (label: "old" | "new", k: keyof Figures) => median(results[label].map((f) => f[k]));
  const lines = [
    `| figure (median of ${ROUNDS}) | ${oldRef} | this tree | change |`,
    "|---|---:|---:|---:|",
    ...(
      [
        "create",
        "read",
        "deliveries",
        "createCpuUs",
        "readCpuUs",
        "list",
        "balance",
        "listCpuUs",
        "balanceCpuUs",
      ] as const
    )
      .filter((k) => !Number.isNaN(med("new", k)))
      .map((k) => {
        const o = med("old", k);
        const n = med("new", k);
        const label = {
          create: "charge create / ceiling",
          read: "charge read / ceiling",
          deliveries: "webhook deliveries/s",
          createCpuUs: "server CPU per create (us)",
          readCpuUs: "server CPU per read (us)",
          list: "payments list (20) / ceiling",
          balance: "wallet balance / ceiling",
          listCpuUs: "server CPU per list (us)",
          balanceCpuUs: "server CPU per balance (us)",
        }[k];
        const fmt = (x: number) =>
          k === "create" || k === "read" || k === "list" || k === "balance"
            ? x.toFixed(3)
            : String(Math.round(x * 10) / 10);
        return `| ${label} | ${fmt(o)} | ${fmt(n)} | ${(((n - o) / o) * 100).toFixed(1)}% |`;
      }),
  ];
  console.log(`\n${lines.join("\n")}`);
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  const file = join(ROOT, "bench/results", `compare-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ oldRef, rounds: ROUNDS, seconds: SECONDS, results }, null, 2));
  console.log(`\nwritten ${file}`);
} finally {
  await sh(["git", "worktree", "remove", "--force", oldTree], ROOT).catch(() => {});
  rmSync(tmp, { recursive: true, force: true });
}
