/**
 * Live card bench (issue 26 §5), part of `bun run bench` and runnable alone: `bun bench/cards.ts [N=200]`.
 *
 * `cofre stripe-sim` and `cofre serve` as child processes of the compiled executable on 127.0.0.1,
 * one account whose card provider is connected to the simulator (Cofre registers its webhook
 * endpoint there). Measured the way bench/live.ts measures live Pix, one request at a time:
 *   - live card create: N rounds, each one direct `checkout.sessions.create` at the simulator with
 *     the `stripe` package (the client Cofre uses, same parameters, a fresh idempotency key: the
 *     simulator's own response time) and one `POST /v1/payments` (CREDIT_CARD) with a live key,
 *     interleaved so the box's drift hits both alike. Cofre's own cost = create p50 - simulator p50;
 *     target at most 2 ms.
 *   - webhook to APPROVED: M live card payments, one at a time, each paid by the simulator's control
 *     route; the figure runs from the simulator starting to send `checkout.session.completed` (its
 *     delivery attempt's `at_ms`, wall clock on the same box) to the first `GET /v1/payments/{id}`
 *     (polled back to back) reading APPROVED: the signature check, the queued status check that
 *     retrieves the session from the simulator, and the commit. Target p50 under 100 ms. The same
 *     payments timed from the bench's pay request are printed too (adds the simulator's pay).
 * A test-mode card create (no provider call) is timed in the same rounds as a reference. Warm-up
 * (30 rounds, 5 payments) is unmeasured.
 */
import Stripe from "stripe";
import { api, cliInit, CofreServer, ensureBinary } from "./lib/server";
import { percentile } from "./lib/psp-sim";
import { StripeSimProcess } from "./lib/stripe-sim";

export interface CardFigure {
  name: string;
  p50Ms: number;
  p95Ms: number;
  samples: number;
}

export interface CardBenchResult {
  sim: CardFigure;
  create: CardFigure;
  /** create p50 - sim p50, ms. */
  ownCostMs: number;
  webhookToApproved: CardFigure;
  payToApproved: CardFigure;
  sandbox: CardFigure;
  failures: number;
  targets: { ownCostMs: number; webhookToApprovedMs: number };
  pass: { ownCost: boolean; webhookToApproved: boolean };
}

export const CARD_TARGETS = { ownCostMs: 2, webhookToApprovedMs: 100 };
const OPERATOR = "bench_cards_operator_0123456789";

const figure = (name: string, xs: number[]): CardFigure => ({
  name,
  p50Ms: percentile(xs, 0.5),
  p95Ms: percentile(xs, 0.95),
  samples: xs.length,
});

/** Runs both measurements: `creates` rounds of create, `payments` payments. */
export async function runCardBench(creates = 200, payments = 60): Promise<CardBenchResult> {
  const sim = new StripeSimProcess({ refundDelayMs: null });
  const cofre = new CofreServer({ env: { COFRE_OPERATOR_TOKEN: OPERATOR, LOG_LEVEL: "warn" } });
  let failures = 0;
  try {
    await sim.init();
    const accountId = await cliInit(cofre, "cards@example.com", "cards bench password 1", "Loja Bench Cartões");
    await Promise.all([sim.start(), cofre.start()]);
    const login = await api(cofre.base, "POST", "/v1/auth/login", {
      body: { email: "cards@example.com", password: "cards bench password 1" },
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
    const conn = await api(cofre.base, "PUT", `/v1/operator/accounts/${accountId}/card-provider`, {
      bearer: OPERATOR,
      body: sim.body,
    });
    if (conn.status !== 200) throw new Error(`card connect: ${conn.status} ${JSON.stringify(conn.body)}`);
    const u = new URL(sim.body.api_base);
    const stripe = new Stripe(sim.body.secret_key, {
      host: u.hostname,
      port: Number(u.port),
      protocol: "http",
      httpClient: Stripe.createFetchHttpClient(fetch),
      maxNetworkRetries: 0,
      telemetry: false,
    });
    let n = 0;
    const direct = async () => {
      const id = `bench${Date.now().toString(36)}${(n++).toString(36)}`;
      const t = performance.now();
      try {
        await stripe.checkout.sessions.create(
          {
            mode: "payment",
            line_items: [
              {
                price_data: { currency: "brl", unit_amount: 1990, product_data: { name: "Loja Bench Cartões" } },
                quantity: 1,
              },
            ],
            success_url: `${cofre.base}/c/${id}?retorno=1`,
            cancel_url: `${cofre.base}/c/${id}`,
            client_reference_id: id,
            metadata: { cofre_transaction_id: id },
            payment_intent_data: { metadata: { cofre_transaction_id: id } },
            expires_at: Math.floor(Date.now() / 1000) + 86_000,
            locale: "pt-BR",
          },
          { idempotencyKey: `bench_cs_${id}` },
        );
      } catch {
        failures++;
      }
      return performance.now() - t;
    };
    const create = async (key = liveKey, amount = 1990) => {
      const t = performance.now();
      const r = await api(cofre.base, "POST", "/v1/payments", {
        key,
        body: { amount, paymentMethods: ["CREDIT_CARD"], idempotencyKey: `card-bench-${Date.now()}-${n++}` },
      });
      if (r.status !== 201) failures++;
      return { ms: performance.now() - t, id: r.body?.id as string };
    };
    for (let i = 0; i < 30; i++) await Promise.all([direct(), create(), create(testKey)]);
    failures = 0;
    const simMs: number[] = [];
    const createMs: number[] = [];
    const sandboxMs: number[] = [];
    for (let i = 0; i < creates; i++) {
      simMs.push(await direct());
      createMs.push((await create()).ms);
      sandboxMs.push((await create(testKey)).ms);
    }

    const seen: { session: string; payMs: number; approvedAt: number }[] = [];
    for (let i = 0; i < payments + 5; i++) {
      const { id } = await create(liveKey, 1000 + i);
      const page = await fetch(`${cofre.base}/c/${id}`).then((r) => r.text());
      const session = /\/pay\/(cs_[A-Za-z0-9_]+)"/.exec(page)?.[1];
      if (!session) {
        failures++;
        continue;
      }
      const t = performance.now();
      const p = await sim.control("POST", `/_sim/checkout/sessions/${session}/pay`, {});
      if (p.status !== 200 || p.body.outcome !== "paid") failures++;
      let approved = false;
      while (!approved && performance.now() - t < 10_000)
        approved = (await api(cofre.base, "GET", `/v1/payments/${id}`, { key: liveKey })).body?.status === "APPROVED";
      const approvedAt = Date.now();
      if (!approved) failures++;
      if (i >= 5) seen.push({ session, payMs: performance.now() - t, approvedAt });
    }
    // When the simulator began each session's checkout.session.completed delivery (first attempt).
    const events = (await sim.control("GET", "/_sim/events")).body.data as {
      type: string;
      object: string;
      deliveries: { attempts: { at_ms: number }[] }[];
    }[];
    const sentAt = new Map<string, number>();
    for (const e of events)
      if (e.type === "checkout.session.completed")
        sentAt.set(e.object, Math.min(...e.deliveries.flatMap((d) => d.attempts.map((a) => a.at_ms))));
    const webhookMs: number[] = [];
    for (const s of seen) {
      const at = sentAt.get(s.session);
      if (at === undefined || !Number.isFinite(at)) failures++;
      else webhookMs.push(s.approvedAt - at);
    }
    const sf = figure("stripe-sim checkout.sessions.create (direct, stripe client)", simMs);
    const c = figure("POST /v1/payments CREDIT_CARD (live, via stripe-sim)", createMs);
    const own = Math.round((c.p50Ms - sf.p50Ms) * 100) / 100;
    const wh = figure("checkout.session.completed sent -> GET reads APPROVED", webhookMs);
    return {
      sim: sf,
      create: c,
      ownCostMs: own,
      webhookToApproved: wh,
      payToApproved: figure(
        "pay request -> GET reads APPROVED (reference)",
        seen.map((s) => s.payMs),
      ),
      sandbox: figure("POST /v1/payments CREDIT_CARD (test mode, reference)", sandboxMs),
      failures,
      targets: CARD_TARGETS,
      pass: { ownCost: own <= CARD_TARGETS.ownCostMs, webhookToApproved: wh.p50Ms < CARD_TARGETS.webhookToApprovedMs },
    };
  } finally {
    await Promise.all([sim.kill(), cofre.kill("SIGTERM")]);
    cofre.removeData();
    sim.remove();
  }
}

/** The result as Markdown lines (table, then the two targets with PASS/FAIL). */
export function formatCards(r: CardBenchResult): string {
  const row = (f: CardFigure) => `| ${f.name} | ${f.samples} | ${f.p50Ms.toFixed(2)} | ${f.p95Ms.toFixed(2)} |`;
  return [
    "| live card scenario | samples | p50 ms | p95 ms |",
    "|---|---:|---:|---:|",
    row(r.sim),
    row(r.create),
    row(r.webhookToApproved),
    row(r.payToApproved),
    row(r.sandbox),
    "",
    `- Cofre's own cost per live card create (create p50 - stripe-sim p50): ${r.ownCostMs.toFixed(2)} ms, target <= ${r.targets.ownCostMs} ms: ${r.pass.ownCost ? "PASS" : "FAIL"}`,
    `- webhook to APPROVED p50: ${r.webhookToApproved.p50Ms.toFixed(2)} ms, target < ${r.targets.webhookToApprovedMs} ms: ${r.pass.webhookToApproved ? "PASS" : "FAIL"}`,
    `- failed requests: ${r.failures}`,
  ].join("\n");
}

if (import.meta.main) {
  await ensureBinary(process.env.BENCH_REBUILD === "1");
  const r = await runCardBench(Number(process.argv[2] ?? 200), Number(process.argv[3] ?? 60));
  console.log(`\nCofre live card bench (stripe-sim on loopback, plain HTTP), ${navigator.hardwareConcurrency} cores\n`);
  console.log(formatCards(r));
  process.exit(r.pass.ownCost && r.pass.webhookToApproved && r.failures === 0 ? 0 : 1);
}
