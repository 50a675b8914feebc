/**
 * Crash soak (a script, not part of `bun test`): `bun bench/soak.ts [seconds=60]`;
 * `bun bench/soak.ts --live [seconds=60]` runs the live-mode soak against psp-sim instead
 * (bench/soak-live.ts: live creates, payments at the simulator, refunds, no duplicate cob or
 * devolução, orphan cobs reported).
 *
 * Runs the compiled `dist/cofre` (built when missing; `SOAK_REBUILD=1` forces it) on 127.0.0.1
 * with a fresh data dir and the test clock, creates the merchant with `cofre init`, logs in,
 * issues a test key and registers a webhook endpoint on a local receiver (which fails 5% of
 * deliveries with 500 to exercise retries). Four workers then drive charge creation, sandbox
 * payment, payments, refunds and MED actions while the server is killed with SIGKILL at random
 * moments and restarted. Afterwards (receiver healthy, clock advanced so retries fall due) it
 * checks:
 *   - every acknowledged request is present (GET it; paid charges are no longer pending; MED
 *     actions kept their status; a retried idempotency key never produced a second resource);
 *   - every delivery the service committed reached the receiver at least once (deduplicated by
 *     event id / delivery id), every acknowledged charge's `charge.created` included;
 *   - `cofre ledger verify` exits 0 (run after a final SIGKILL);
 *   - no charge's refunds (non-FAILED) exceed its amount, through the API for the acknowledged
 *     ones and in the database for every transaction (whose `refunded_amount` must match them).
 * Prints a summary (and a JSON line) and exits 1 on any violation. Routes that are not wired
 * (404) are skipped with a printed note.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { api, cliInit, CofreServer, ensureBinary, loginAndKey, type Merchant } from "./lib/server";
import { CrashLoop } from "./lib/killer";

// `--live`: the live-mode soak against psp-sim (bench/soak-live.ts) instead of the sandbox one.
if (process.argv[2] === "--live") {
  const { runLiveSoak } = await import("./soak-live");
  process.exit(await runLiveSoak(Number(process.argv[3] ?? process.env.SOAK_SECONDS ?? 60)));
}

const SECONDS = Number(process.argv[2] ?? process.env.SOAK_SECONDS ?? 60);
const WORKERS = 4;
const OPERATOR_TOKEN = "soak_operator_token_0123456789";

const violations: string[] = [];
const notes: string[] = [];
/** `op status code` -> count of non-2xx answers (expected ones: refund over remaining, MED on a refunded charge...). */
const rejections = new Map<string, number>();
const stats = { kills: 0, opsOk: 0, opsLost: 0, opsRejected: 0, retriedKeys: 0 };

// ---- webhook receiver -------------------------------------------------------------------------
const received = { deliveries: new Set<string>(), events: new Set<string>(), chargeCreated: new Set<string>(), chargePaid: new Set<string>(), posts: 0 };
let failRate = 0.05;
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const body = await req.text();
    received.posts++;
    if (Math.random() < failRate) return new Response("try again", { status: 500 });
    const deliveryId = req.headers.get("x-cofre-delivery-id") ?? req.headers.get("webhook-id");
    if (deliveryId) received.deliveries.add(deliveryId);
    try {
      const p = JSON.parse(body);
      if (typeof p.id === "string") received.events.add(p.id);
      if (p.type === "charge.created" && p.data?.object?.id) received.chargeCreated.add(p.data.object.id);
      if (p.type === "charge.paid" && p.data?.object?.id) received.chargePaid.add(p.data.object.id);
    } catch {}
    return new Response("ok");
  },
});

// ---- server lifecycle -------------------------------------------------------------------------
await ensureBinary(process.env.SOAK_REBUILD === "1");
// Deliveries go to a receiver on 127.0.0.1: private targets must be allowed.
const server = new CofreServer({ env: { COFRE_TEST_CLOCK: "1", COFRE_OPERATOR_TOKEN: OPERATOR_TOKEN, COFRE_WEBHOOK_ALLOW_PRIVATE: "1" } });
const crash = new CrashLoop(server, notes);
let merchant!: Merchant;

/** Resolves once the server answers; every worker awaits it before its next operation. */
async function whenUp() {
  await crash.up;
}

async function call(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  return api(server.base, method, path, { key: merchant.testKey, body, headers, timeoutMs: 5_000 });
}

/**
 * For the drain and check phase (no kills any more): generous timeout, three tries; a request
 * that still fails is answered as status 0 so the check records a violation instead of crashing.
 */
async function check(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  let last = "";
  for (let i = 0; i < 3; i++) {
    try {
      return await api(server.base, method, path, { key: merchant.testKey, body, timeoutMs: 60_000 });
    } catch (e) {
      last = String(e);
    }
  }
  return { status: 0, body: { error: { message: last } } };
}

// ---- acknowledged state -----------------------------------------------------------------------
interface ChargeAck {
  id: string;
  amount: number;
  paid: boolean;
}
const charges = new Map<string, ChargeAck>();
const payments = new Set<string>();
const refunds: { id: string; raw: string; amount: number }[] = [];
const medCases = new Map<string, string>(); // id -> status acknowledged last
/** MED cases with an action whose response a kill cut off (it may or may not have committed). */
const medUnknown = new Set<string>();
const keyToId = new Map<string, string>();
const unwired = new Set<string>();
let seq = 0;

function pick<T>(xs: T[]): T | undefined {
  return xs.length ? xs[Math.floor(Math.random() * xs.length)] : undefined;
}
const raw = (id: string) => id.replace(/^ch_/, "");

/** Runs `op`; a network failure (the server was killed) counts as lost, a 404 route as unwired. */
/** Runs one operation; `lost` hears when its outcome is unknown (connection cut by a kill: it may have committed). */
async function attempt(name: string, op: () => Promise<{ status: number; body: any } | null>, ok: (r: { status: number; body: any }) => void, lost?: () => void) {
  try {
    const r = await op();
    if (!r) return;
    if (r.status === 404 && r.body?.error?.message?.startsWith("No route")) {
      if (!unwired.has(name)) notes.push(`${name}: route not wired, skipped`);
      unwired.add(name);
      return;
    }
    if (r.status >= 200 && r.status < 300) {
      stats.opsOk++;
      ok(r);
    } else {
      stats.opsRejected++;
      const k = `${name} ${r.status} ${r.body?.error?.code ?? ""}`;
      rejections.set(k, (rejections.get(k) ?? 0) + 1);
    }
  } catch {
    stats.opsLost++;
    lost?.();
  }
}

async function createCharge() {
  const key = `soak-ch-${++seq}`;
  const amount = 1_000 + Math.floor(Math.random() * 50_000);
  const body = { amount, customer: { name: "Pagador Soak", document: "52998224725" } };
  let lost = false;
  await attempt("charge.create", async () => {
    try {
      return await call("POST", "/v1/pix/charges", body, { "idempotency-key": key });
    } catch (e) {
      lost = true;
      throw e;
    }
  }, (r) => {
    charges.set(r.body.id, { id: r.body.id, amount, paid: false });
    keyToId.set(key, r.body.id);
  });
  if (lost) {
    // Retry the same key once the server is back: at most one charge may exist for it.
    await whenUp();
    stats.retriedKeys++;
    await attempt("charge.create", () => call("POST", "/v1/pix/charges", body, { "idempotency-key": key }), (r) => {
      charges.set(r.body.id, { id: r.body.id, amount, paid: false });
      keyToId.set(key, r.body.id);
    });
  }
}

async function payCharge() {
  const c = pick([...charges.values()].filter((c) => !c.paid));
  if (!c) return createCharge();
  await attempt("charge.pay", () => call("POST", `/v1/test_helpers/charges/${c.id}/pay`, {}), () => (c.paid = true));
}

async function createPayment() {
  const key = `soak-pay-${++seq}`;
  await attempt("payment.create", () => call("POST", "/v1/payments", { amount: 2_000 + Math.floor(Math.random() * 10_000), paymentMethods: ["PIX"], idempotencyKey: key }), (r) => payments.add(r.body.id));
}

async function refund() {
  const c = pick([...charges.values()].filter((c) => c.paid));
  if (!c) return payCharge();
  const amount = 100 + Math.floor(Math.random() * c.amount * 0.6);
  await attempt("refund.create", () => call("POST", `/v1/payments/${raw(c.id)}/refund`, { idempotencyKey: `soak-re-${++seq}`, amount }), (r) => refunds.push({ id: r.body.id, raw: raw(c.id), amount }));
}

async function med() {
  const open = [...medCases.entries()].filter(([, s]) => s === "open" || s === "appealed");
  if (open.length && Math.random() < 0.6) {
    const [id, status] = pick(open)!;
    const choice = Math.random();
    // An action whose response was lost to a kill may have committed: the case's status is then unknown.
    const unknown = () => medUnknown.add(id);
    if (status === "open" && choice < 0.33)
      return attempt("med.accept", () => call("POST", `/v1/med/cases/${id}/accept`), (r) => medCases.set(id, r.body.status), unknown);
    if (status === "open" && choice < 0.66)
      return attempt("med.appeal", () => call("POST", `/v1/med/cases/${id}/appeal`, { reason: "Goods were delivered." }), (r) => medCases.set(id, r.body.status), unknown);
    const outcome = pick(["upheld", "merchant_favor", "withdrawn", "closed_without_refund"])!;
    return attempt("med.resolve", () => call("POST", `/v1/test_helpers/med/cases/${id}/resolve`, { outcome }), (r) => medCases.set(id, r.body.status), unknown);
  }
  const refunded = new Set(refunds.map((r) => r.raw));
  const c = pick([...charges.values()].filter((c) => c.paid && !refunded.has(raw(c.id))));
  if (!c) return payCharge();
  await attempt("med.open", () => call("POST", `/v1/test_helpers/charges/${c.id}/med`, {}), (r) => medCases.set(r.body.id, r.body.status));
}

async function worker(until: number) {
  while (Date.now() < until) {
    await whenUp();
    const x = Math.random();
    if (x < 0.35) await createCharge();
    else if (x < 0.6) await payCharge();
    else if (x < 0.7) await createPayment();
    else if (x < 0.85) await refund();
    else await med();
  }
}


// ---- run --------------------------------------------------------------------------------------
const t0 = Date.now();
merchant = await initMerchantWithServer();
const catalog = await api(server.base, "GET", "/v1/webhooks/event-catalog");
const eventNames: string[] = catalog.status === 200 ? (catalog.body as { event: string }[]).map((e) => e.event) : ["charge.created", "charge.paid"];
const endpoint = await call("POST", "/v1/webhooks/endpoints", { url: `http://127.0.0.1:${receiver.port}/hook`, events: eventNames });
const endpointId: string | null = endpoint.status === 201 ? endpoint.body.id : null;
if (!endpointId) notes.push(`webhook endpoint not created (${endpoint.status}); delivery checks skipped`);
const subscribedChargeCreated = eventNames.includes("charge.created");

const until = Date.now() + SECONDS * 1000;
await Promise.all([crash.run(until), ...Array.from({ length: WORKERS }, () => worker(until))]);
stats.kills += crash.kills;
await whenUp();

// Let everything due happen: receiver healthy, clock moved so retries and refunds fall due.
failRate = 0;
const drainStart = Date.now();
let pendingDeliveries = -1;
for (let i = 0; i < 60; i++) {
  const adv = await check("POST", "/v1/test_helpers/clock/advance", { seconds: 900 });
  if (adv.status !== 200 && i === 0) notes.push(`clock advance answered ${adv.status}; retries only fall due in real time`);
  await Bun.sleep(250);
  const s = await check("GET", "/v1/webhooks/stats");
  if (s.status !== 200) break;
  pendingDeliveries = (s.body.PENDING ?? 0) + (s.body.PROCESSING ?? 0);
  if (pendingDeliveries === 0 && i >= 2) break;
}

// ---- checks -----------------------------------------------------------------------------------
for (const [key, id] of keyToId) if (!charges.has(id)) violations.push(`idempotency key ${key} mapped to an unknown charge ${id}`);
const idsByKey = new Map<string, Set<string>>();
for (const [key, id] of keyToId) (idsByKey.get(key) ?? idsByKey.set(key, new Set()).get(key)!).add(id);
for (const [key, ids] of idsByKey) if (ids.size > 1) violations.push(`idempotency key ${key} produced ${ids.size} charges`);

for (const c of charges.values()) {
  const r = await check("GET", `/v1/charges/${c.id}`);
  if (r.status !== 200) violations.push(`acknowledged charge ${c.id} missing (${r.status})`);
  else if (r.body.amount !== c.amount) violations.push(`charge ${c.id} amount ${r.body.amount} != ${c.amount}`);
  else if (c.paid && r.body.status === "pending") violations.push(`charge ${c.id} acknowledged paid but pending`);
}
for (const id of payments) {
  const r = await check("GET", `/v1/payments/${id}`);
  if (r.status !== 200) violations.push(`acknowledged payment ${id} missing (${r.status})`);
}
const refundsByCharge = new Map<string, { id: string; amount: number; status: string }[]>();
for (const c of charges.values()) {
  if (!c.paid) continue;
  const r = await check("GET", `/v1/payments/${raw(c.id)}/refunds`);
  if (r.status !== 200) continue;
  const list = (Array.isArray(r.body) ? r.body : r.body.data ?? []) as { id: string; amount: number; status: string }[];
  refundsByCharge.set(raw(c.id), list);
  const total = list.filter((x) => x.status !== "FAILED").reduce((s, x) => s + x.amount, 0);
  if (total > c.amount) violations.push(`charge ${c.id}: refunds ${total} exceed amount ${c.amount}`);
}
for (const rf of refunds) {
  const list = refundsByCharge.get(rf.raw);
  if (!list?.some((x) => x.id === rf.id)) violations.push(`acknowledged refund ${rf.id} of ${rf.raw} missing`);
}
for (const [id, status] of medCases) {
  const r = await check("GET", `/v1/med/cases/${id}`);
  if (r.status !== 200) violations.push(`acknowledged MED case ${id} missing (${r.status})`);
  else if (r.body.status !== status && !medUnknown.has(id) && !(status === "appealed" && ["rejected", "closed"].includes(r.body.status)))
    violations.push(`MED case ${id} acknowledged ${status}, now ${r.body.status}`);
}

let deliveriesTotal = 0;
let deliveriesNotDelivered = 0;
if (endpointId) {
  for (let offset = 0; ; offset += 100) {
    const page = await check("GET", `/v1/webhooks/deliveries?limit=100&offset=${offset}&endpointId=${endpointId}`);
    if (page.status !== 200) {
      notes.push(`deliveries list answered ${page.status}`);
      break;
    }
    for (const d of page.body.data as { id: string; status: string; payload?: { id?: string } }[]) {
      deliveriesTotal++;
      const seen = received.deliveries.has(d.id) || (d.payload?.id !== undefined && received.events.has(d.payload.id));
      if (!seen) {
        deliveriesNotDelivered++;
        if (deliveriesNotDelivered <= 10) violations.push(`delivery ${d.id} (${d.status}, event ${d.payload?.id ?? "legacy"}) never reached the receiver`);
      }
    }
    if (page.body.data.length < 100) break;
  }
  if (subscribedChargeCreated)
    for (const id of charges.keys()) if (!received.chargeCreated.has(id)) violations.push(`charge.created of acknowledged charge ${id} never delivered`);
  if (eventNames.includes("charge.paid"))
    for (const c of charges.values()) if (c.paid && !received.chargePaid.has(c.id)) violations.push(`charge.paid of acknowledged payment of ${c.id} never delivered`);
}

await server.kill("SIGKILL");
stats.kills++;
// Database-wide, for every transaction (not only the acknowledged ones): refunds that are not
// FAILED never exceed the amount, and the stored refunded total matches them.
{
  const db = new Database(join(server.dataDir, "cofre.db"), { readonly: true });
  const over = db.query(
    `select t.id, t.amount, r.s from transactions t join (select transaction_id, sum(amount) s from refunds where status != 'FAILED' group by 1) r
       on r.transaction_id = t.id where r.s > t.amount`,
  ).all() as { id: string; amount: number; s: number }[];
  for (const o of over) violations.push(`transaction ${o.id}: refunds ${o.s} exceed amount ${o.amount} (database)`);
  const drift = db.query(
    `select t.id, t.refunded_amount, coalesce(r.s, 0) s from transactions t left join (select transaction_id, sum(amount) s from refunds where status != 'FAILED' group by 1) r
       on r.transaction_id = t.id where t.refunded_amount != coalesce(r.s, 0)`,
  ).all() as { id: string; refunded_amount: number; s: number }[];
  for (const d of drift.slice(0, 10)) violations.push(`transaction ${d.id}: refunded_amount ${d.refunded_amount} != sum of its refunds ${d.s} (database)`);
  db.close();
}
const verify = await server.cli(["ledger", "verify"]);
if (verify.code !== 0) violations.push(`cofre ledger verify exited ${verify.code}: ${verify.stdout.slice(0, 400)} ${verify.stderr.slice(0, 200)}`);
receiver.stop(true);

const summary = {
  seconds: SECONDS,
  kills: stats.kills,
  operations_acknowledged: stats.opsOk,
  operations_lost_in_flight: stats.opsLost,
  operations_rejected: stats.opsRejected,
  idempotent_retries: stats.retriedKeys,
  charges: charges.size,
  paid: [...charges.values()].filter((c) => c.paid).length,
  payments: payments.size,
  refunds: refunds.length,
  med_cases: medCases.size,
  deliveries: deliveriesTotal,
  receiver_posts: received.posts,
  distinct_events_received: received.events.size,
  deliveries_pending_after_drain: pendingDeliveries,
  drain_ms: Date.now() - drainStart,
  ledger_verify_exit: verify.code,
  rejected_5xx: [...rejections].filter(([k]) => / 5\d\d /.test(k)).reduce((s, [, n]) => s + n, 0),
  violations: violations.length,
  wall_ms: Date.now() - t0,
};
console.log("\nCofre crash soak");
for (const [k, v] of Object.entries(summary)) console.log(`  ${k.padEnd(32)} ${v}`);
for (const [k, n] of [...rejections].sort((a, b) => b[1] - a[1])) console.log(`  rejected: ${k} x${n}`);
for (const n of notes) console.log(`  note: ${n}`);
for (const v of violations.slice(0, 50)) console.log(`  VIOLATION: ${v}`);
console.log(JSON.stringify({ soak: summary }));
if (violations.length) console.log(`  data dir kept for inspection: ${server.dataDir}`);
else server.removeData();
process.exit(violations.length ? 1 : 0);

/** `init` with the server stopped, start it, zero settlement delay via the operator API, log in. */
async function initMerchantWithServer(): Promise<Merchant> {
  const accountId = await cliInit(server, "soak@example.com", "soak password 123", "Soak Loja");
  await server.start();
  const op = await api(server.base, "PATCH", `/v1/operator/accounts/${accountId}`, { bearer: OPERATOR_TOKEN, body: { settlement_delay_seconds: 0 } });
  if (op.status !== 200) notes.push(`operator settings answered ${op.status}: refunds may meet insufficient_balance`);
  return { email: "soak@example.com", password: "soak password 123", accountId, ...(await loginAndKey(server.base, "soak@example.com", "soak password 123")) };
}
