/**
 * Payouts bench (issue 24 §5), part of `bun run bench` (bench/run.ts) and runnable alone:
 * `bun bench/payouts.ts [seconds=5] [live rounds=200]` (`BENCH_REBUILD=1` rebuilds dist/cofre;
 * `BENCH_PAYOUTS_ONLY=sandbox|live` runs one half). Exits 1 when a target fails.
 *
 * Sandbox throughput: for each run a fresh `dist/cofre serve` on 127.0.0.1 (own data dir, real
 * clock, so no payout job of an earlier run fires during it), one account with a test key, its
 * wallet funded by one paid test charge of R$ 1,000,000.00 (operator `settlement_delay_seconds` 0:
 * `available` at once), one destination registered with the dashboard session. wrk (2 threads,
 * 50 connections, one unmeasured second of load, then `seconds`) measures, each request with its
 * own Idempotency-Key (Lua scripts): `POST /v1/pix/charges`; `POST /v1/payouts` of R$ 1.00, fee 0,
 * `payout_delay_seconds` 0 (the default: every payout is also sent by its job and goes
 * `processing` while the run goes on, then `paid` 10 s later); and the same with delay 3600 (the
 * create request alone, for reference). The three interleaved twice so the box's drift hits all
 * alike. Target: payouts/s (delay 0) at least half the charge creations/s, best of each -> PASS/FAIL.
 *
 * Live cost above psp-sim: `cofre psp-sim --send-results manual` (sends stay EM_PROCESSAMENTO, so
 * nothing but the send itself is timed) and `cofre serve`, the account connected as `efi` over
 * mTLS, its live wallet funded by a live charge paid at the simulator. N rounds, one request at a
 * time, interleaved: (a) one direct `PUT /v3/gn/pix/{idEnvio}` to the simulator (Bun fetch with
 * the merchant certificate and a cached token, as the adapter does: the simulator's own time);
 * (b) one live `POST /v1/payouts`, then `GET /v1/payouts/{id}` back to back until its
 * `end_to_end_id` shows (the send is answered and recorded: create unit, the job's claim,
 * `processing` unit (which records the first attempt), the PUT at the simulator, the outcome unit). Cofre's own
 * cost = (b) p50 - (a) p50; target at most 2 ms. The create answer alone (no PSP call in the
 * request) is printed too, and as a reference in the same rounds the live charge's own cost as
 * bench/live.ts measures it (live `POST /v1/pix/charges` p50 - direct `PUT /v2/cob/{txid}` p50).
 * Warm-up (20 rounds) is unmeasured.
 */
import { readFileSync } from "node:fs";
import { cpf } from "cpf-cnpj-validator";
import { api, cliInit, CofreServer, ensureBinary, loginAndKey } from "./lib/server";
import { percentile, SimProcess } from "./lib/psp-sim";
import { createChargeLua, wrk, type WrkResult } from "./lib/wrk";

export const PAYOUT_TARGETS = { ratioToCharges: 0.5, liveOwnCostMs: 2 };
const OPERATOR = "bench_payouts_operator_0123456789";
const PASSWORD = "bench payouts password 1";
const DESTINATION = { type: "pix_key", pix_key: "52998224725", pix_key_type: "cpf", name: "Fulano Bench" };

export interface PayoutRun {
  scenario: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** Server CPU per request, microseconds (utime + stime over the run). */
  cpuUsPerReq: number | null;
}

export interface SandboxPayoutResult {
  runs: PayoutRun[];
  chargesRps: number;
  /** The best delay-0 run (each payout also sent and paid by its job during the run). */
  payoutsRps: number;
  /** The best delay-3600 run (the create request alone: the payouts stay pending). */
  createOnlyRps: number;
  ratio: number;
  createOnlyRatio: number;
  pass: boolean;
  /** 1-minute load average when the runs began (the box is shared). */
  loadAvg: number;
}

export interface LivePayoutResult {
  sim: { p50Ms: number; p95Ms: number; samples: number };
  createToSent: { p50Ms: number; p95Ms: number; samples: number };
  createAnswer: { p50Ms: number; p95Ms: number; samples: number };
  ownCostMs: number;
  /** Reference in the same rounds: direct PUT /cob, live charge create, and their difference. */
  cobSim: { p50Ms: number; p95Ms: number; samples: number };
  chargeCreate: { p50Ms: number; p95Ms: number; samples: number };
  chargeOwnCostMs: number;
  pass: boolean;
  failures: number;
}

/** wrk's Lua script for `POST /v1/payouts` of R$ 1.00 to `destinationId`, a unique Idempotency-Key per request. */
export function createPayoutLua(apiKey: string, prefix: string, destinationId: string): string {
  return `
local n = 0
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
function request()
  n = n + 1
  return wrk.format("POST", "/v1/payouts", {
    ["content-type"] = "application/json",
    ["apikey"] = "${apiKey}",
    ["idempotency-key"] = "${prefix}-" .. tid .. "-" .. n,
  }, '{"amount":100,"destination_id":"${destinationId}","description":"bench"}')
end`;
}

/** 1-minute load average of the box (other helpers' jobs share it). */
function loadAvg(): number {
  try {
    return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
  } catch {
    return NaN;
  }
}

interface Bench {
  server: CofreServer;
  testKey: string;
  destinationId: string;
}

/**
 * A fresh `dist/cofre serve` (own data dir, so no payout job of an earlier run fires during this
 * one): account, test key, operator settings (`settlement_delay_seconds` 0 and `payoutDelaySeconds`),
 * one paid test charge of R$ 1,000,000.00 in `available`, one destination.
 */
async function freshBench(payoutDelaySeconds: number): Promise<Bench> {
  const server = new CofreServer({ env: { COFRE_OPERATOR_TOKEN: OPERATOR, LOG_LEVEL: "warn" } });
  const accountId = await cliInit(server, "payouts@example.com", PASSWORD, "Bench Saques");
  await server.start();
  const { token, testKey } = await loginAndKey(server.base, "payouts@example.com", PASSWORD);
  const op = await api(server.base, "PATCH", `/v1/operator/accounts/${accountId}`, {
    bearer: OPERATOR,
    body: { settlement_delay_seconds: 0, payout_delay_seconds: payoutDelaySeconds },
  });
  if (op.status !== 200) throw new Error(`operator settings: ${op.status} ${JSON.stringify(op.body)}`);
  const charge = await api(server.base, "POST", "/v1/pix/charges", {
    key: testKey,
    headers: { "idempotency-key": `fund-${Date.now()}` },
    body: { amount: 100_000_000 },
  });
  const paid = await api(server.base, "POST", `/v1/test_helpers/charges/${charge.body.id}/pay`, {
    key: testKey,
    body: {},
  });
  if (paid.status !== 200)
    throw new Error(`funding charge: ${charge.status}/${paid.status} ${JSON.stringify(paid.body)}`);
  const dest = await api(server.base, "POST", "/v1/payout_destinations", { bearer: token, body: DESTINATION });
  if (dest.status !== 201) throw new Error(`destination: ${dest.status} ${JSON.stringify(dest.body)}`);
  const balance = await api(server.base, "GET", "/v1/wallets/balance?currency=BRL", { key: testKey });
  if (!(balance.body?.available >= 50_000_000)) throw new Error(`wallet not funded: ${JSON.stringify(balance.body)}`);
  return { server, testKey, destinationId: dest.body.id };
}

/** Sandbox payouts/s against charge creations/s in the same run (module header). */
export async function runSandboxPayouts(seconds: number): Promise<SandboxPayoutResult> {
  const load = loadAvg();
  const runs: PayoutRun[] = [];
  const stamp = Date.now();
  const measure = async (scenario: string, path: "/v1/pix/charges" | "/v1/payouts", payoutDelaySeconds = 0) => {
    const b = await freshBench(payoutDelaySeconds);
    try {
      const lua = (tag: string) =>
        path === "/v1/pix/charges"
          ? createChargeLua(b.testKey, `bench-ch-${stamp}-${tag}`)
          : createPayoutLua(b.testKey, `bench-po-${stamp}-${tag}`, b.destinationId);
      await wrk(`${b.server.base}${path}`, { seconds: 1, lua: lua(`w${runs.length}`) });
      const cpu0 = await b.server.cpuMicros();
      const r: WrkResult = await wrk(`${b.server.base}${path}`, { seconds, lua: lua(`m${runs.length}`) });
      const cpu1 = await b.server.cpuMicros();
      runs.push({
        scenario,
        rps: Math.round(r.rps),
        p50Ms: r.p50Ms,
        p99Ms: r.p99Ms,
        non2xx: r.non2xx + r.errors,
        cpuUsPerReq:
          cpu0 !== null && cpu1 !== null && r.requests > 0 ? Math.round(((cpu1 - cpu0) / r.requests) * 10) / 10 : null,
      });
    } finally {
      await b.server.kill("SIGTERM");
      b.server.removeData();
    }
  };
  const CHARGES = "POST /v1/pix/charges (sandbox)";
  const PAYOUTS = "POST /v1/payouts (sandbox, delay 0: sent and paid during the run)";
  const CREATE_ONLY = "POST /v1/payouts (sandbox, delay 3600: create only)";
  for (let i = 0; i < 2; i++) {
    await measure(CHARGES, "/v1/pix/charges");
    await measure(PAYOUTS, "/v1/payouts", 0);
    await measure(CREATE_ONLY, "/v1/payouts", 3600);
  }
  const best = (name: string) => Math.max(...runs.filter((r) => r.scenario === name).map((r) => r.rps));
  const chargesRps = best(CHARGES);
  const payoutsRps = best(PAYOUTS);
  const createOnlyRps = best(CREATE_ONLY);
  const ratio = Math.round((payoutsRps / chargesRps) * 1000) / 1000;
  const clean = runs.every((r) => r.non2xx === 0);
  return {
    runs,
    chargesRps,
    payoutsRps,
    createOnlyRps,
    ratio,
    createOnlyRatio: Math.round((createOnlyRps / chargesRps) * 1000) / 1000,
    pass: clean && ratio >= PAYOUT_TARGETS.ratioToCharges,
    loadAvg: load,
  };
}

const figure = (xs: number[]) => ({ p50Ms: percentile(xs, 0.5), p95Ms: percentile(xs, 0.95), samples: xs.length });

/** Live payout's own cost above psp-sim (module header); `rounds` measured rounds. */
export async function runLivePayouts(rounds: number): Promise<LivePayoutResult> {
  const sim = new SimProcess({ sendResults: "manual" });
  const cofre = new CofreServer({ env: { COFRE_OPERATOR_TOKEN: OPERATOR, LOG_LEVEL: "warn" } });
  let failures = 0;
  try {
    await sim.init();
    if (!sim.efiBody) throw new Error("this psp-sim writes no pix-provider-efi.json (no Efí routes)");
    const accountId = await cliInit(cofre, "live-payouts@example.com", PASSWORD, "Loja Bench Saques");
    await Promise.all([sim.start(), cofre.start()]);
    const login = await api(cofre.base, "POST", "/v1/auth/login", {
      body: { email: "live-payouts@example.com", password: PASSWORD },
    });
    const liveKey = (
      await api(cofre.base, "POST", "/v1/api-keys", {
        bearer: login.body.access_token,
        body: { label: "bench", test: false },
      })
    ).body.apiKey as string;
    const op = await api(cofre.base, "PATCH", `/v1/operator/accounts/${accountId}`, {
      bearer: OPERATOR,
      body: { settlement_delay_seconds: 0 },
    });
    if (op.status !== 200) throw new Error(`operator settings: ${op.status}`);
    const conn = await api(cofre.base, "PUT", `/v1/operator/accounts/${accountId}/pix-provider`, {
      bearer: OPERATOR,
      body: sim.efiBody,
    });
    if (conn.status !== 200) throw new Error(`connect efi: ${conn.status} ${JSON.stringify(conn.body)}`);
    const dest = await api(cofre.base, "POST", "/v1/payout_destinations", {
      bearer: login.body.access_token,
      body: DESTINATION,
    });
    if (dest.status !== 201) throw new Error(`destination: ${dest.status} ${JSON.stringify(dest.body)}`);

    // Fund the live wallet: one live charge paid at the simulator (callback -> paid -> available).
    const need = (rounds + 40) * 100;
    const charge = await api(cofre.base, "POST", "/v1/pix/charges", {
      key: liveKey,
      headers: { "idempotency-key": `fund-${Date.now()}` },
      body: { amount: need * 2, customer: { name: "Pagador Bench", document: "52998224725" } },
    });
    if (charge.status !== 201) throw new Error(`funding charge: ${charge.status} ${JSON.stringify(charge.body)}`);
    await sim.control("POST", `/_sim/cob/${charge.body.pix.txid}/pay`, {
      pagador: { nome: "Pagador Bench", cpf: cpf.generate() },
      wait_callback: true,
    });
    for (let i = 0; i < 200; i++) {
      const b = await api(cofre.base, "GET", "/v1/wallets/balance?currency=BRL", { key: liveKey });
      if (b.body?.available >= need) break;
      if (i === 199) throw new Error(`live wallet not funded: ${JSON.stringify(b.body)}`);
      await Bun.sleep(50);
    }

    const token = await sim.token();
    const efi = sim.efiBody;
    let n = 0;
    const direct = async () => {
      const idEnvio = `benchdirect${Date.now().toString(36)}${(n++).toString(36)}`.slice(0, 35);
      const t = performance.now();
      const r = await sim.request("PUT", `${efi.api_url}/v3/gn/pix/${idEnvio}`, {
        headers: { authorization: `Bearer ${token}` },
        body: {
          valor: "1.00",
          pagador: { chave: efi.pix_key, infoPagador: "bench" },
          favorecido: { chave: "52998224725", cpf: "52998224725" },
        },
      });
      if (r.status !== 201) failures++;
      return performance.now() - t;
    };
    const payout = async () => {
      const t = performance.now();
      const r = await api(cofre.base, "POST", "/v1/payouts", {
        key: liveKey,
        headers: { "idempotency-key": `live-po-${Date.now()}-${n++}` },
        body: { amount: 100, destination_id: dest.body.id, description: "bench" },
      });
      const answered = performance.now() - t;
      if (r.status !== 201) {
        failures++;
        return { answered, sent: answered };
      }
      for (;;) {
        const g = await api(cofre.base, "GET", `/v1/payouts/${r.body.id}`, { key: liveKey });
        if (g.body?.end_to_end_id) break;
        if (g.body?.status === "failed" || performance.now() - t > 10_000) {
          failures++;
          break;
        }
      }
      return { answered, sent: performance.now() - t };
    };
    const directCob = async () => {
      const txid = `benchcob${Date.now().toString(36)}${(n++).toString(36)}`.padEnd(32, "x").slice(0, 35);
      const t = performance.now();
      const r = await sim.request("PUT", `${sim.body.api_url}/cob/${txid}`, {
        headers: { authorization: `Bearer ${token}` },
        body: { calendario: { expiracao: 3600 }, valor: { original: "19.90" }, chave: sim.body.pix_key },
      });
      if (r.status !== 201) failures++;
      return performance.now() - t;
    };
    const liveCharge = async () => {
      const t = performance.now();
      const r = await api(cofre.base, "POST", "/v1/pix/charges", {
        key: liveKey,
        headers: { "idempotency-key": `live-ch-${Date.now()}-${n++}` },
        body: { amount: 1990, description: "bench", customer: { name: "Pagador Bench", document: "52998224725" } },
      });
      if (r.status !== 201) failures++;
      return performance.now() - t;
    };
    for (let i = 0; i < 20; i++) {
      await direct();
      await payout();
      await directCob();
      await liveCharge();
    }
    failures = 0;
    const simMs: number[] = [];
    const sentMs: number[] = [];
    const answerMs: number[] = [];
    const cobMs: number[] = [];
    const chargeMs: number[] = [];
    for (let i = 0; i < rounds; i++) {
      simMs.push(await direct());
      const p = await payout();
      sentMs.push(p.sent);
      answerMs.push(p.answered);
      cobMs.push(await directCob());
      chargeMs.push(await liveCharge());
    }
    const s = figure(simMs);
    const c = figure(sentMs);
    const own = Math.round((c.p50Ms - s.p50Ms) * 100) / 100;
    const cob = figure(cobMs);
    const ch = figure(chargeMs);
    return {
      sim: s,
      createToSent: c,
      createAnswer: figure(answerMs),
      ownCostMs: own,
      cobSim: cob,
      chargeCreate: ch,
      chargeOwnCostMs: Math.round((ch.p50Ms - cob.p50Ms) * 100) / 100,
      pass: own <= PAYOUT_TARGETS.liveOwnCostMs && failures === 0,
      failures,
    };
  } finally {
    await Promise.all([sim.kill(), cofre.kill("SIGTERM")]);
    cofre.removeData();
  }
}

/** Both results as Markdown (tables, then the targets with PASS/FAIL). */
export function formatPayouts(sb: SandboxPayoutResult | null, live: LivePayoutResult | null): string {
  const out: string[] = [];
  if (sb) {
    out.push(
      `Sandbox (wrk 2 threads x 50 connections; 1-min load average ${sb.loadAvg.toFixed(2)} at the start):`,
      "",
      "| scenario | req/s | p50 ms | p99 ms | server CPU us/req | non-2xx |",
      "|---|---:|---:|---:|---:|---:|",
      ...sb.runs.map(
        (r) =>
          `| ${r.scenario} | ${r.rps} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.cpuUsPerReq ?? "-"} | ${r.non2xx} |`,
      ),
      "",
      `- payouts/s over charge creations/s (best of each, delay 0): ${sb.payoutsRps} / ${sb.chargesRps} = ${sb.ratio.toFixed(3)}, target >= ${PAYOUT_TARGETS.ratioToCharges}: ${sb.pass ? "PASS" : "FAIL"}`,
      `- the create request alone (delay 3600, best): ${sb.createOnlyRps} / ${sb.chargesRps} = ${sb.createOnlyRatio.toFixed(3)} (reference, not the target)`,
    );
  }
  if (live) {
    const row = (name: string, f: { p50Ms: number; p95Ms: number; samples: number }) =>
      `| ${name} | ${f.samples} | ${f.p50Ms.toFixed(2)} | ${f.p95Ms.toFixed(2)} |`;
    out.push(
      "",
      "Live payout through an `efi` connection (psp-sim on loopback, mTLS, sends left EM_PROCESSAMENTO; one at a time):",
      "",
      "| live scenario | samples | p50 ms | p95 ms |",
      "|---|---:|---:|---:|",
      row("psp-sim PUT /v3/gn/pix/{idEnvio} (direct, mTLS)", live.sim),
      row("POST /v1/payouts (live) -> send recorded (end_to_end_id shown)", live.createToSent),
      row("POST /v1/payouts (live) answered (no PSP call in the request)", live.createAnswer),
      row("reference: psp-sim PUT /v2/cob/{txid} (direct, mTLS)", live.cobSim),
      row("reference: POST /v1/pix/charges (live, via psp-sim)", live.chargeCreate),
      "",
      `- Cofre's own cost per live payout (create -> sent p50 - psp-sim p50): ${live.ownCostMs.toFixed(2)} ms, target <= ${PAYOUT_TARGETS.liveOwnCostMs} ms: ${live.pass ? "PASS" : "FAIL"}`,
      `- reference, same rounds: the live charge's own cost (create p50 - PUT /cob p50, bench/live.ts's target 2 ms): ${live.chargeOwnCostMs.toFixed(2)} ms`,
      `- failed requests: ${live.failures}`,
    );
  }
  return out.join("\n");
}

if (import.meta.main) {
  await ensureBinary(process.env.BENCH_REBUILD === "1");
  const only = process.env.BENCH_PAYOUTS_ONLY;
  const sb = only === "live" ? null : await runSandboxPayouts(Number(process.argv[2] ?? 5));
  const live = only === "sandbox" ? null : await runLivePayouts(Number(process.argv[3] ?? 200));
  console.log(`\nCofre payouts bench, ${navigator.hardwareConcurrency} cores, Bun ${Bun.version}\n`);
  console.log(formatPayouts(sb, live));
  console.log(JSON.stringify({ payouts_bench: { sandbox: sb, live } }));
  process.exit((sb?.pass ?? true) && (live?.pass ?? true) ? 0 : 1);
}
