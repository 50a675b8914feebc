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
 * Payouts (issue 24 §5; skipped with a note while the routes answer 404): the wallet is funded by
 * the paid charges (operator `settlement_delay_seconds` 0), the operator sets `payout_fee_fixed` 50
 * and `payout_delay_seconds` 20 (so some payouts are still `pending` and cancellable), one
 * destination is registered with the dashboard session, and the workers also create payouts
 * under idempotency keys (`metadata.soak_key` = the key; a request cut by a kill is retried with
 * the same key, and some answered keys are replayed), cancel some and pay or fail some through
 * the sandbox helpers. After the drain (clock advanced: every payout reaches a final status) it checks:
 *   - every acknowledged payout is there (GET) with its amount, in the status an acknowledged
 *     action left it, and final; one key never produced two payouts (answers, and in the
 *     database: payouts per `metadata.soak_key`), and none exists whose key was never sent;
 *   - `available` of the wallet (GET /v1/wallets/balance) equals the sum of the ledger's
 *     `available` lines in the database and is not negative; each payout's ledger lines take
 *     `amount + fee` out of `available` unless it failed or was cancelled (then 0), and post its
 *     payout to the payee only when paid;
 *   - `payout.created` and the final `payout.paid` / `payout.failed` of every acknowledged payout
 *     reached the receiver.
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
const stats = { kills: 0, opsOk: 0, opsLost: 0, opsRejected: 0, retriedKeys: 0, payoutRetries: 0, payoutReplays: 0 };

// ---- webhook receiver -------------------------------------------------------------------------
const received = {
  deliveries: new Set<string>(),
  events: new Set<string>(),
  chargeCreated: new Set<string>(),
  chargePaid: new Set<string>(),
  posts: 0,
};
/** Canonical payout events received: payout id -> event types. */
const payoutEvents = new Map<string, Set<string>>();
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
      if (typeof p.type === "string" && p.type.startsWith("payout.") && p.data?.object?.id) {
        const id = p.data.object.id as string;
        (payoutEvents.get(id) ?? payoutEvents.set(id, new Set()).get(id)!).add(p.type);
      }
    } catch {}
    return new Response("ok");
  },
});

// ---- server lifecycle -------------------------------------------------------------------------
await ensureBinary(process.env.SOAK_REBUILD === "1");
// Deliveries go to a receiver on 127.0.0.1: private targets must be allowed.
const server = new CofreServer({
  env: { COFRE_TEST_CLOCK: "1", COFRE_OPERATOR_TOKEN: OPERATOR_TOKEN, COFRE_WEBHOOK_ALLOW_PRIVATE: "1" },
});
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
async function attempt(
  name: string,
  op: () => Promise<{ status: number; body: any } | null>,
  ok: (r: { status: number; body: any }) => void,
  lost?: () => void,
) {
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
  await attempt(
    "charge.create",
    async () => {
      try {
        return await call("POST", "/v1/pix/charges", body, { "idempotency-key": key });
      } catch (e) {
        lost = true;
        throw e;
      }
    },
    (r) => {
      charges.set(r.body.id, { id: r.body.id, amount, paid: false });
      keyToId.set(key, r.body.id);
    },
  );
  if (lost) {
    // Retry the same key once the server is back: at most one charge may exist for it.
    await whenUp();
    stats.retriedKeys++;
    await attempt(
      "charge.create",
      () => call("POST", "/v1/pix/charges", body, { "idempotency-key": key }),
      (r) => {
        charges.set(r.body.id, { id: r.body.id, amount, paid: false });
        keyToId.set(key, r.body.id);
      },
    );
  }
}

async function payCharge() {
  const c = pick([...charges.values()].filter((c) => !c.paid));
  if (!c) return createCharge();
  await attempt(
    "charge.pay",
    () => call("POST", `/v1/test_helpers/charges/${c.id}/pay`, {}),
    () => (c.paid = true),
  );
}

async function createPayment() {
  const key = `soak-pay-${++seq}`;
  await attempt(
    "payment.create",
    () =>
      call("POST", "/v1/payments", {
        amount: 2_000 + Math.floor(Math.random() * 10_000),
        paymentMethods: ["PIX"],
        idempotencyKey: key,
      }),
    (r) => payments.add(r.body.id),
  );
}

async function refund() {
  const c = pick([...charges.values()].filter((c) => c.paid));
  if (!c) return payCharge();
  const amount = 100 + Math.floor(Math.random() * c.amount * 0.6);
  await attempt(
    "refund.create",
    () => call("POST", `/v1/payments/${raw(c.id)}/refund`, { idempotencyKey: `soak-re-${++seq}`, amount }),
    (r) => refunds.push({ id: r.body.id, raw: raw(c.id), amount }),
  );
}

async function med() {
  const open = [...medCases.entries()].filter(([, s]) => s === "open" || s === "appealed");
  if (open.length && Math.random() < 0.6) {
    const [id, status] = pick(open)!;
    const choice = Math.random();
    // An action whose response was lost to a kill may have committed: the case's status is then unknown.
    const unknown = () => medUnknown.add(id);
    if (status === "open" && choice < 0.33)
      return attempt(
        "med.accept",
        () => call("POST", `/v1/med/cases/${id}/accept`),
        (r) => medCases.set(id, r.body.status),
        unknown,
      );
    if (status === "open" && choice < 0.66)
      return attempt(
        "med.appeal",
        () => call("POST", `/v1/med/cases/${id}/appeal`, { reason: "Goods were delivered." }),
        (r) => medCases.set(id, r.body.status),
        unknown,
      );
    const outcome = pick(["upheld", "merchant_favor", "withdrawn", "closed_without_refund"])!;
    return attempt(
      "med.resolve",
      () => call("POST", `/v1/test_helpers/med/cases/${id}/resolve`, { outcome }),
      (r) => medCases.set(id, r.body.status),
      unknown,
    );
  }
  const refunded = new Set(refunds.map((r) => r.raw));
  const c = pick([...charges.values()].filter((c) => c.paid && !refunded.has(raw(c.id))));
  if (!c) return payCharge();
  await attempt(
    "med.open",
    () => call("POST", `/v1/test_helpers/charges/${c.id}/med`, {}),
    (r) => medCases.set(r.body.id, r.body.status),
  );
}

// ---- payouts (issue 24 §5) --------------------------------------------------------------------
interface PayoutAck {
  id: string;
  key: string;
  amount: number;
  /** The status an acknowledged cancel / pay / fail left it in (it must still be so), or null. */
  final: "cancelled" | "paid" | "failed" | null;
  /** An action was attempted (one per payout). */
  acted: boolean;
  /** An action whose answer a kill cut off: its outcome is unknown. */
  unknown: boolean;
}
const payouts = new Map<string, PayoutAck>();
/** Every payout key sent, answered or not -> the payout ids answers named (must stay one). */
const payoutKeyIds = new Map<string, Set<string>>();
const payoutBodies = new Map<string, unknown>();
let destinationId: string | null = null;
const PAYOUT_FEE = 50;
/** Database figures of payouts for the summary (checkPayoutsInDb). */
const dbFigures: Record<string, number> = {};

/**
 * POST /v1/payouts under `key` until it is answered: a request cut by a kill is retried with the
 * same key once the server is back, and so is a 409 `idempotency_key_in_use` (the first attempt
 * may still hold the key) or a 503.
 */
async function postPayout(key: string, name: string): Promise<void> {
  for (let i = 0; i < 6; i++) {
    let lost = false;
    let again = false;
    await attempt(
      name,
      async () => {
        try {
          const r = await call("POST", "/v1/payouts", payoutBodies.get(key), { "idempotency-key": key });
          again = r.status === 503 || (r.status === 409 && r.body?.error?.code === "idempotency_key_in_use");
          return r;
        } catch (e) {
          lost = true;
          throw e;
        }
      },
      (r) => {
        payoutKeyIds.get(key)!.add(r.body.id);
        if (!payouts.has(r.body.id))
          payouts.set(r.body.id, {
            id: r.body.id,
            key,
            amount: r.body.amount,
            final: null,
            acted: false,
            unknown: false,
          });
        else if (payouts.get(r.body.id)!.key !== key)
          violations.push(`payout ${r.body.id} answered for keys ${payouts.get(r.body.id)!.key} and ${key}`);
      },
    );
    if (!lost && !again) return;
    stats.payoutRetries++;
    await whenUp();
    if (again) await Bun.sleep(200);
  }
}

async function createPayout() {
  if (!destinationId || unwired.has("payout.create")) return createCharge();
  const key = `soak-po-${++seq}`;
  const amount = 100 + Math.floor(Math.random() * 4_900);
  payoutBodies.set(key, {
    amount,
    destination_id: destinationId,
    description: "Saque soak",
    metadata: { soak_key: key },
  });
  payoutKeyIds.set(key, new Set());
  await postPayout(key, "payout.create");
}

/** Replays an answered key: the same payout must come back (never a second one). */
async function replayPayout() {
  const key = pick([...payoutKeyIds.entries()].filter(([, ids]) => ids.size > 0).map(([k]) => k));
  if (!key) return createPayout();
  stats.payoutReplays++;
  await postPayout(key, "payout.replay");
}

/** Cancels (while pending), pays or fails (sandbox helpers) one payout nothing was done to yet. */
async function payoutAction() {
  const p = pick([...payouts.values()].filter((p) => !p.acted));
  if (!p) return createPayout();
  p.acted = true;
  const x = Math.random();
  const [name, path, body] =
    x < 0.5
      ? ["payout.cancel", `/v1/payouts/${p.id}/cancel`, {}]
      : x < 0.75
        ? ["payout.pay", `/v1/test_helpers/payouts/${p.id}/pay`, {}]
        : ["payout.fail", `/v1/test_helpers/payouts/${p.id}/fail`, { failure_code: "soak_failed" }];
  await attempt(
    name,
    () => call("POST", path, body),
    (r) => (p.final = r.body.status),
    () => (p.unknown = true),
  );
}

async function worker(until: number) {
  while (Date.now() < until) {
    await whenUp();
    const x = Math.random();
    if (x < 0.28) await createCharge();
    else if (x < 0.5) await payCharge();
    else if (x < 0.57) await createPayment();
    else if (x < 0.68) await refund();
    else if (x < 0.78) await med();
    else if (x < 0.9) await createPayout();
    else if (x < 0.93) await replayPayout();
    else await payoutAction();
  }
}

// ---- run --------------------------------------------------------------------------------------
const t0 = Date.now();
merchant = await initMerchantWithServer();
await setUpPayouts();
const catalog = await api(server.base, "GET", "/v1/webhooks/event-catalog");
const eventNames: string[] =
  catalog.status === 200
    ? (catalog.body as { event: string }[]).map((e) => e.event)
    : ["charge.created", "charge.paid"];
const endpoint = await call("POST", "/v1/webhooks/endpoints", {
  url: `http://127.0.0.1:${receiver.port}/hook`,
  events: eventNames,
});
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
// Payouts: advance until none is pending or processing (20 s delay, then paid 10 s after the send).
let payoutsInFlight = -1;
if (destinationId && !unwired.has("payout.create")) {
  for (let i = 0; i < 20; i++) {
    const [pend, proc] = await Promise.all([
      check("GET", "/v1/payouts?status=pending&limit=1"),
      check("GET", "/v1/payouts?status=processing&limit=1"),
    ]);
    payoutsInFlight = (pend.body?.data?.length ?? 1) + (proc.body?.data?.length ?? 1);
    if (payoutsInFlight === 0) break;
    await check("POST", "/v1/test_helpers/clock/advance", { seconds: 120 });
    await Bun.sleep(250);
  }
}
let pendingDeliveries = -1;
for (let i = 0; i < 60; i++) {
  const adv = await check("POST", "/v1/test_helpers/clock/advance", { seconds: 900 });
  if (adv.status !== 200 && i === 0)
    notes.push(`clock advance answered ${adv.status}; retries only fall due in real time`);
  await Bun.sleep(250);
  const s = await check("GET", "/v1/webhooks/stats");
  if (s.status !== 200) break;
  pendingDeliveries = (s.body.PENDING ?? 0) + (s.body.PROCESSING ?? 0);
  if (pendingDeliveries === 0 && i >= 2) break;
}

// ---- checks -----------------------------------------------------------------------------------
for (const [key, id] of keyToId)
  if (!charges.has(id)) violations.push(`idempotency key ${key} mapped to an unknown charge ${id}`);
const idsByKey = new Map<string, Set<string>>();
for (const [key, id] of keyToId) (idsByKey.get(key) ?? idsByKey.set(key, new Set()).get(key)!).add(id);
for (const [key, ids] of idsByKey)
  if (ids.size > 1) violations.push(`idempotency key ${key} produced ${ids.size} charges`);

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
  const list = (Array.isArray(r.body) ? r.body : (r.body.data ?? [])) as {
    id: string;
    amount: number;
    status: string;
  }[];
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
  else if (
    r.body.status !== status &&
    !medUnknown.has(id) &&
    !(status === "appealed" && ["rejected", "closed"].includes(r.body.status))
  )
    violations.push(`MED case ${id} acknowledged ${status}, now ${r.body.status}`);
}

// Payouts through the API: every acknowledged one there, final, as its acknowledged action left it.
const payoutStatus = new Map<string, string>();
for (const [key, ids] of payoutKeyIds)
  if (ids.size > 1)
    violations.push(`payout idempotency key ${key} produced ${ids.size} payouts: ${[...ids].join(", ")}`);
for (const p of payouts.values()) {
  const r = await check("GET", `/v1/payouts/${p.id}`);
  if (r.status !== 200) {
    violations.push(`acknowledged payout ${p.id} missing (${r.status})`);
    continue;
  }
  payoutStatus.set(p.id, r.body.status);
  if (r.body.amount !== p.amount || r.body.fee !== PAYOUT_FEE)
    violations.push(`payout ${p.id} amount/fee ${r.body.amount}/${r.body.fee} != ${p.amount}/${PAYOUT_FEE}`);
  if (r.body.metadata?.soak_key !== p.key)
    violations.push(`payout ${p.id} carries key ${r.body.metadata?.soak_key}, answered for ${p.key}`);
  if (!["paid", "failed", "cancelled"].includes(r.body.status))
    violations.push(`payout ${p.id} still ${r.body.status} after the drain`);
  if (p.final && r.body.status !== p.final)
    violations.push(`payout ${p.id} acknowledged ${p.final}, now ${r.body.status}`);
}
const balanceApi = destinationId ? await check("GET", "/v1/wallets/balance?currency=BRL") : null;
if (balanceApi && balanceApi.status !== 200) violations.push(`wallet balance answered ${balanceApi.status}`);

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
        if (deliveriesNotDelivered <= 10)
          violations.push(
            `delivery ${d.id} (${d.status}, event ${d.payload?.id ?? "legacy"}) never reached the receiver`,
          );
      }
    }
    if (page.body.data.length < 100) break;
  }
  if (subscribedChargeCreated)
    for (const id of charges.keys())
      if (!received.chargeCreated.has(id))
        violations.push(`charge.created of acknowledged charge ${id} never delivered`);
  if (eventNames.includes("charge.paid"))
    for (const c of charges.values())
      if (c.paid && !received.chargePaid.has(c.id))
        violations.push(`charge.paid of acknowledged payment of ${c.id} never delivered`);
  if (eventNames.includes("payout.created"))
    for (const [id, status] of payoutStatus) {
      const got = payoutEvents.get(id) ?? new Set<string>();
      const final =
        status === "paid" ? "payout.paid" : status === "failed" || status === "cancelled" ? "payout.failed" : null;
      for (const want of ["payout.created", final])
        if (want && !got.has(want)) violations.push(`${want} of acknowledged payout ${id} (${status}) never delivered`);
    }
}

await server.kill("SIGKILL");
stats.kills++;
// Database-wide, for every transaction (not only the acknowledged ones): refunds that are not
// FAILED never exceed the amount, and the stored refunded total matches them.
{
  const db = new Database(join(server.dataDir, "cofre.db"), { readonly: true });
  const over = db
    .query(
      `select t.id, t.amount, r.s from transactions t join (select transaction_id, sum(amount) s from refunds where status != 'FAILED' group by 1) r
       on r.transaction_id = t.id where r.s > t.amount`,
    )
    .all() as { id: string; amount: number; s: number }[];
  for (const o of over) violations.push(`transaction ${o.id}: refunds ${o.s} exceed amount ${o.amount} (database)`);
  const drift = db
    .query(
      `select t.id, t.refunded_amount, coalesce(r.s, 0) s from transactions t left join (select transaction_id, sum(amount) s from refunds where status != 'FAILED' group by 1) r
       on r.transaction_id = t.id where t.refunded_amount != coalesce(r.s, 0)`,
    )
    .all() as { id: string; refunded_amount: number; s: number }[];
  for (const d of drift.slice(0, 10))
    violations.push(
      `transaction ${d.id}: refunded_amount ${d.refunded_amount} != sum of its refunds ${d.s} (database)`,
    );
  if (payoutKeyIds.size) checkPayoutsInDb(db);
  db.close();
}
const verify = await server.cli(["ledger", "verify"]);
if (verify.code !== 0)
  violations.push(
    `cofre ledger verify exited ${verify.code}: ${verify.stdout.slice(0, 400)} ${verify.stderr.slice(0, 200)}`,
  );
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
  payouts_acknowledged: payouts.size,
  payout_keys_sent: payoutKeyIds.size,
  payout_retries_same_key: stats.payoutRetries,
  payout_replays_of_answered_keys: stats.payoutReplays,
  payouts_final: JSON.stringify(
    [...payoutStatus.values()].reduce<Record<string, number>>((m, s) => {
      m[s] = (m[s] ?? 0) + 1;
      return m;
    }, {}),
  ),
  payouts_in_db: JSON.stringify(dbFigures),
  payouts_in_flight_after_drain: payoutsInFlight,
  payout_actions_cut_by_kills: [...payouts.values()].filter((p) => p.unknown).length,
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

/**
 * Database checks of payouts (server stopped): one payout per idempotency key (`metadata.soak_key`),
 * none of a key never sent, none in flight; each payout's ledger lines (entries caused by it)
 * move `available`, `payout_in_transit` and `external_payer` as its final status says; the
 * wallet's `available` (answered by the API before the kill) equals the sum of the ledger's lines.
 */
function checkPayoutsInDb(db: Database): void {
  const rows = db
    .query(
      `select id, status, amount, fee, json_extract(metadata, '$.soak_key') k from payouts where account_id = ? and livemode = 0`,
    )
    .all(merchant.accountId) as { id: string; status: string; amount: number; fee: number; k: string | null }[];
  dbFigures.payouts = rows.length;
  const byKey = new Map<string, string[]>();
  for (const r of rows) {
    if (r.k === null || !payoutKeyIds.has(r.k)) violations.push(`payout ${r.id} (database) has key ${r.k}, never sent`);
    else (byKey.get(r.k) ?? byKey.set(r.k, []).get(r.k)!).push(r.id);
    if (r.status === "pending" || r.status === "processing")
      violations.push(`payout ${r.id} still ${r.status} in the database`);
    dbFigures[r.status] = (dbFigures[r.status] ?? 0) + 1;
  }
  for (const [k, ids] of byKey) {
    if (ids.length > 1) violations.push(`payout key ${k} has ${ids.length} payouts in the database: ${ids.join(", ")}`);
    for (const answered of payoutKeyIds.get(k)!)
      if (!ids.includes(answered)) violations.push(`payout ${answered} answered for ${k} is not in the database`);
  }
  dbFigures.keys_with_one_payout = [...byKey.values()].filter((ids) => ids.length === 1).length;
  const lines = db
    .query(
      `select e.cause_id id, l.ledger_account acct, sum(l.amount) s from ledger_entries e join ledger_lines l on l.entry_id = e.id
        where e.cause_id in (select id from payouts where account_id = ?) group by 1, 2`,
    )
    .all(merchant.accountId) as { id: string; acct: string; s: number }[];
  const sums = new Map<string, number>();
  for (const l of lines) sums.set(`${l.id} ${l.acct}`, l.s);
  let bad = 0;
  for (const r of rows) {
    const restored = r.status === "failed" || r.status === "cancelled";
    const want: Record<string, number> = {
      available: restored ? 0 : -(r.amount + r.fee),
      payout_in_transit: r.status === "pending" || r.status === "processing" ? r.amount : 0,
      external_payer: r.status === "paid" ? r.amount : 0,
    };
    for (const [acct, v] of Object.entries(want)) {
      const got = sums.get(`${r.id} ${acct}`) ?? 0;
      if (got !== v && bad++ < 10)
        violations.push(`payout ${r.id} (${r.status}): ledger ${acct} ${got}, expected ${v}`);
    }
  }
  const ledgerAvailable = (
    db
      .query(
        `select coalesce(sum(amount), 0) s from ledger_lines where account_id = ? and livemode = 0 and currency = 'BRL' and ledger_account = 'available'`,
      )
      .get(merchant.accountId) as { s: number }
  ).s;
  dbFigures.ledger_available = ledgerAvailable;
  if (balanceApi?.status === 200) {
    dbFigures.api_available = balanceApi.body.available;
    if (balanceApi.body.available !== ledgerAvailable)
      violations.push(`wallet available ${balanceApi.body.available} != ledger lines ${ledgerAvailable}`);
    if (balanceApi.body.available < 0) violations.push(`wallet available is negative: ${balanceApi.body.available}`);
  }
}

/**
 * Payout settings (fee 50, 20 s in `pending`) through the operator API and one destination (a CPF
 * Pix key) registered with the dashboard session; a note and no payouts when either is missing.
 */
async function setUpPayouts(): Promise<void> {
  const op = await api(server.base, "PATCH", `/v1/operator/accounts/${merchant.accountId}`, {
    bearer: OPERATOR_TOKEN,
    body: { payout_fee_fixed: PAYOUT_FEE, payout_delay_seconds: 20 },
  });
  if (op.status !== 200) notes.push(`payout settings answered ${op.status} ${op.body?.error?.code ?? ""}`);
  const d = await api(server.base, "POST", "/v1/payout_destinations", {
    bearer: merchant.token,
    body: { type: "pix_key", pix_key: "52998224725", pix_key_type: "cpf", name: "Fulano Soak" },
  });
  if (d.status === 201) destinationId = d.body.id;
  else notes.push(`payout destination answered ${d.status} ${JSON.stringify(d.body).slice(0, 200)}: payouts skipped`);
}

/** `init` with the server stopped, start it, zero settlement delay via the operator API, log in. */
async function initMerchantWithServer(): Promise<Merchant> {
  const accountId = await cliInit(server, "soak@example.com", "soak password 123", "Soak Loja");
  await server.start();
  const op = await api(server.base, "PATCH", `/v1/operator/accounts/${accountId}`, {
    bearer: OPERATOR_TOKEN,
    body: { settlement_delay_seconds: 0 },
  });
  if (op.status !== 200) notes.push(`operator settings answered ${op.status}: refunds may meet insufficient_balance`);
  return {
    email: "soak@example.com",
    password: "soak password 123",
    accountId,
    ...(await loginAndKey(server.base, "soak@example.com", "soak password 123")),
  };
}
