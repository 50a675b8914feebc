/**
 * Live Pix bench (issue 14 §5), part of `bun run bench` and runnable alone: `bun bench/live.ts [N=300]`.
 *
 * `cofre psp-sim` and `cofre serve` as child processes of the compiled
 * executable on 127.0.0.1, one account connected over mTLS. Two figures, each against its target:
 *   - live create: N rounds, one request at a time, each round one direct `PUT /cob/{txid}` to the
 *     simulator (the same Bun fetch with the merchant certificate and a cached token as the
 *     adapter: the simulator's own response time) and one `POST /v1/pix/charges` with a live key
 *     (Cofre's create latency), interleaved so the box's drift hits both alike. Cofre's own cost =
 *     create p50 - simulator p50; target at most 2 ms.
 *   - callback to paid: M charges, one at a time: the clock starts when the bench asks the
 *     simulator to pay (`/_sim/cob/{txid}/pay`, which sends the callback at once) and stops at the
 *     first `GET /v1/charges/{id}` (polled back to back) that shows `paid` (the callback, the
 *     queued confirmation `GET /cob/{txid}` or `GET /pix/{e2eid}`, and the commit); target p50 under 100 ms.
 * A test-mode create (no PSP call) is timed in the same rounds as a reference for the HTTP and
 * create path both modes share. Warm-up (50 rounds, 5 payments) is unmeasured.
 */
import { cpf } from "cpf-cnpj-validator";
import { api, cliInit, CofreServer, ensureBinary } from "./lib/server";
import { percentile, SimProcess } from "./lib/psp-sim";

export interface LiveFigure {
  name: string;
  p50Ms: number;
  p95Ms: number;
  samples: number;
}

export interface LiveBenchResult {
  sim: LiveFigure;
  create: LiveFigure;
  /** create p50 - sim p50, ms. */
  ownCostMs: number;
  callbackToPaid: LiveFigure;
  /** Reference: a test-mode (sandbox) create, same client, same rounds (no PSP call). */
  sandbox: LiveFigure;
  failures: number;
  targets: { ownCostMs: number; callbackToPaidMs: number };
  pass: { ownCost: boolean; callbackToPaid: boolean };
}

export const TARGETS = { ownCostMs: 2, callbackToPaidMs: 100 };
const OPERATOR = "bench_live_operator_0123456789";

const figure = (name: string, xs: number[]): LiveFigure => ({
  name,
  p50Ms: percentile(xs, 0.5),
  p95Ms: percentile(xs, 0.95),
  samples: xs.length,
});

/** Runs both measurements; `creates` rounds of create, `payments` payments. */
export async function runLiveBench(creates = 300, payments = 60): Promise<LiveBenchResult> {
  const sim = new SimProcess();
  const cofre = new CofreServer({ env: { COFRE_OPERATOR_TOKEN: OPERATOR, LOG_LEVEL: "warn" } });
  let failures = 0;
  try {
    await sim.init();
    const accountId = await cliInit(cofre, "live@example.com", "live bench password 1", "Loja Bench Live");
    await Promise.all([sim.start(), cofre.start()]);
    const login = await api(cofre.base, "POST", "/v1/auth/login", {
      body: { email: "live@example.com", password: "live bench password 1" },
    });
    const issue = async (test: boolean) =>
      (
        await api(cofre.base, "POST", "/v1/api-keys", {
          bearer: login.body.access_token,
          body: { label: "bench", test },
        })
      ).body.apiKey as string;
    const liveKey = await issue(false);
    const testKey = await issue(true);
    const conn = await api(cofre.base, "PUT", `/v1/operator/accounts/${accountId}/pix-provider`, {
      bearer: OPERATOR,
      body: sim.body,
    });
    if (conn.status !== 200) throw new Error(`connect: ${conn.status} ${JSON.stringify(conn.body)}`);
    const token = await sim.token();
    let n = 0;
    const direct = async () => {
      const txid = `bench${Date.now().toString(36)}${(n++).toString(36)}`.padEnd(32, "x").slice(0, 35);
      const t = performance.now();
      const r = await sim.request("PUT", `${sim.body.api_url}/cob/${txid}`, {
        headers: { authorization: `Bearer ${token}` },
        body: { calendario: { expiracao: 3600 }, valor: { original: "19.90" }, chave: sim.body.pix_key },
      });
      if (r.status !== 201) failures++;
      return performance.now() - t;
    };
    const create = async (
      body: Record<string, unknown> = {
        amount: 1990,
        description: "bench",
        customer: { name: "Pagador Bench", document: "52998224725" },
      },
      key = liveKey,
    ) => {
      const t = performance.now();
      const r = await api(cofre.base, "POST", "/v1/pix/charges", {
        key,
        body,
        headers: { "idempotency-key": `live-bench-${Date.now()}-${n++}` },
      });
      if (r.status !== 201) failures++;
      return { ms: performance.now() - t, charge: r.body as { id: string; pix: { txid: string } } };
    };
    const sandbox = () => create(undefined, testKey);
    for (let i = 0; i < 50; i++) await Promise.all([direct(), create(), sandbox()]);
    failures = 0;
    const simMs: number[] = [];
    const createMs: number[] = [];
    const sandboxMs: number[] = [];
    for (let i = 0; i < creates; i++) {
      simMs.push(await direct());
      createMs.push((await create()).ms);
      sandboxMs.push((await sandbox()).ms);
    }
    const paidMs: number[] = [];
    for (let i = 0; i < payments + 5; i++) {
      const { charge } = await create({ amount: 1000 + i });
      const t = performance.now();
      const p = await sim.control("POST", `/_sim/cob/${charge.pix.txid}/pay`, {
        pagador: { nome: "Pagador Bench", cpf: cpf.generate() },
        wait_callback: false,
      });
      if (p.status !== 200) failures++;
      let paid = false;
      while (!paid && performance.now() - t < 10_000)
        paid = (await api(cofre.base, "GET", `/v1/charges/${charge.id}`, { key: liveKey })).body?.status === "paid";
      if (!paid) failures++;
      if (i >= 5) paidMs.push(performance.now() - t);
    }
    const s = figure("psp-sim PUT /cob/{txid} (direct, mTLS)", simMs);
    const c = figure("POST /v1/pix/charges (live, via psp-sim)", createMs);
    const own = Math.round((c.p50Ms - s.p50Ms) * 100) / 100;
    const cb = figure("callback to paid (GET polled)", paidMs);
    return {
      sim: s,
      create: c,
      ownCostMs: own,
      callbackToPaid: cb,
      sandbox: figure("POST /v1/pix/charges (test mode, reference)", sandboxMs),
      failures,
      targets: TARGETS,
      pass: { ownCost: own <= TARGETS.ownCostMs, callbackToPaid: cb.p50Ms < TARGETS.callbackToPaidMs },
    };
  } finally {
    await Promise.all([sim.kill(), cofre.kill("SIGTERM")]);
    cofre.removeData();
  }
}

/** The result as Markdown lines (table, then the two targets with PASS/FAIL). */
export function formatLive(r: LiveBenchResult): string {
  const row = (f: LiveFigure) => `| ${f.name} | ${f.samples} | ${f.p50Ms.toFixed(2)} | ${f.p95Ms.toFixed(2)} |`;
  return [
    "| live scenario | samples | p50 ms | p95 ms |",
    "|---|---:|---:|---:|",
    row(r.sim),
    row(r.create),
    row(r.callbackToPaid),
    row(r.sandbox),
    "",
    `- Cofre's own cost per live create (create p50 - psp-sim p50): ${r.ownCostMs.toFixed(2)} ms, target <= ${r.targets.ownCostMs} ms: ${r.pass.ownCost ? "PASS" : "FAIL"}`,
    `- callback to paid p50: ${r.callbackToPaid.p50Ms.toFixed(2)} ms, target < ${r.targets.callbackToPaidMs} ms: ${r.pass.callbackToPaid ? "PASS" : "FAIL"}`,
    `- failed requests: ${r.failures}`,
  ].join("\n");
}

if (import.meta.main) {
  await ensureBinary(process.env.BENCH_REBUILD === "1");
  const r = await runLiveBench(Number(process.argv[2] ?? 300));
  console.log(`\nCofre live Pix bench (psp-sim on loopback, mTLS), ${navigator.hardwareConcurrency} cores\n`);
  console.log(formatLive(r));
  process.exit(r.pass.ownCost && r.pass.callbackToPaid && r.failures === 0 ? 0 : 1);
}
