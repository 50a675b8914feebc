/**
 * Live crash soak (issue 14 §5; a script, not part of `bun test`): `bun bench/soak.ts --live [seconds=60]`
 * (or `bun bench/soak-live.ts [seconds]`).
 *
 * Runs the compiled `dist/cofre` twice on 127.0.0.1: `cofre psp-sim --auto-settle` (never killed)
 * and `cofre serve` live against it (COFRE_TEST_CLOCK=1), one account
 * connected over mTLS. Four workers create live charges with idempotency keys (replaying some
 * keys that were answered), pay them at the simulator (its callback reaches Cofre or, during a
 * kill, is lost) and refund paid ones, while Cofre is killed with SIGKILL at random moments and
 * restarted; a request cut off by a kill is retried with the same key once Cofre is back.
 * Afterwards both clocks are advanced (polls and the `GET /pix` sweep catch lost callbacks, refund
 * steps run), then it checks:
 *   - every acknowledged charge exists with its amount, and every one paid at the simulator is paid;
 *     one key never produced two charges;
 *   - every acknowledged refund exists; every devolução at the simulator belongs to a Cofre refund
 *     (none duplicated);
 *   - every live charge's txid has its cob at the simulator and no txid serves two charges;
 *   - `cofre ledger verify` exits 0 (after a final SIGKILL).
 *   - no cob at the simulator that no charge knows: a kill between the PSP call and the commit
 *     leaves a create intent that the recovery job finishes while the clocks are advanced
 *     (`SOAK_STRICT_ORPHANS=0` only reports them, for comparing with older builds);
 *   - live refunds are exercised (a 400 REFUND_NOT_SUPPORTED is a violation).
 * Payouts (issue 24 §5): when the simulator writes an `efi` connection body (pix-provider-efi.json;
 * `SOAK_LIVE_EFI=0` keeps the `bcb_pix_v2` connection and no payouts) the account is connected as
 * `efi`, one destination is registered with the dashboard session, and the workers also create
 * live payouts under idempotency keys (`metadata.soak_key` = the key; cut by a kill -> retried
 * with the same key; some answered keys replayed; a few cancelled), R$ 1.00-25.00 so the
 * simulator's Efí bands pay some (<= 10.00), refuse some by callback (10.01-20.00) and refuse the
 * rest at the request. Refunds alternate `strategy: "devolution"` and the default (a cashout: a
 * Pix sent). After the drain it checks:
 *   - every acknowledged payout exists with its amount and is final; one key never produced two
 *     payouts (answers, and payouts per `metadata.soak_key` in the database);
 *   - the live wallet's `available` equals the sum of the ledger's `available` lines, not negative;
 *   - no payout or cashout sent twice at the PSP: at most one send per idEnvio, every send at the
 *     simulator belongs to a Cofre payout (`send_id`) or refund (its id without `re_`) with the
 *     same amount, a paid payout's send is REALIZADO, a failed one's is not REALIZADO, a
 *     cancelled one has no send.
 * Prints a summary and a JSON line; exits 1 on any violation.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { cpf } from "cpf-cnpj-validator";
import { CrashLoop } from "./lib/killer";
import { SimProcess } from "./lib/psp-sim";
import { api, cliInit, CofreServer, ensureBinary } from "./lib/server";

const OPERATOR_TOKEN = "soak_live_operator_token_0123456789";
const WORKERS = 4;

export async function runLiveSoak(seconds: number): Promise<number> {
  await ensureBinary(process.env.SOAK_REBUILD === "1");
  const violations: string[] = [];
  const notes: string[] = [];
  const rejections = new Map<string, number>();
  const stats = { kills: 0, opsOk: 0, opsLost: 0, opsRejected: 0, retriedKeys: 0, replays: 0, paidAtSim: 0, refundsUnsupported: 0, payoutReplays: 0, cashouts: 0, devolutionRefunds: 0 };

  const sim = new SimProcess({ autoSettle: true });
  const server = new CofreServer({ env: { COFRE_TEST_CLOCK: "1", COFRE_OPERATOR_TOKEN: OPERATOR_TOKEN } });
  await sim.init();
  const accountId = await cliInit(server, "soak-live@example.com", "soak live password 1", "Soak Loja Viva");
  await Promise.all([sim.start(), server.start()]);
  const login = await api(server.base, "POST", "/v1/auth/login", { body: { email: "soak-live@example.com", password: "soak live password 1" } });
  const issue = async (test: boolean) => (await api(server.base, "POST", "/v1/api-keys", { bearer: login.body.access_token, body: { label: "soak", test } })).body.apiKey as string;
  const liveKey = await issue(false);
  const testKey = await issue(true);
  const op = await api(server.base, "PATCH", `/v1/operator/accounts/${accountId}`, { bearer: OPERATOR_TOKEN, body: { settlement_delay_seconds: 0 } });
  if (op.status !== 200) notes.push(`operator settings answered ${op.status}: refunds may meet insufficient_balance`);
  const efi = sim.efiBody !== null && process.env.SOAK_LIVE_EFI !== "0";
  const conn = await api(server.base, "PUT", `/v1/operator/accounts/${accountId}/pix-provider`, { bearer: OPERATOR_TOKEN, body: efi ? sim.efiBody : sim.body });
  if (conn.status !== 200) throw new Error(`connect: ${conn.status} ${JSON.stringify(conn.body)}`);
  let destinationId: string | null = null;
  if (efi) {
    const d = await api(server.base, "POST", "/v1/payout_destinations", { bearer: login.body.access_token, body: { type: "pix_key", pix_key: "52998224725", pix_key_type: "cpf", name: "Fulano Soak" } });
    if (d.status === 201) destinationId = d.body.id;
    else notes.push(`payout destination answered ${d.status}: payouts skipped`);
    // 2 s in `pending` (test clock) so the newest payouts can still be cancelled.
    const ps = await api(server.base, "PATCH", `/v1/operator/accounts/${accountId}`, { bearer: OPERATOR_TOKEN, body: { payout_delay_seconds: 2 } });
    if (ps.status !== 200) notes.push(`payout settings answered ${ps.status}`);
  } else notes.push("no efi connection (SOAK_LIVE_EFI=0 or an older psp-sim): payouts skipped");

  const crash = new CrashLoop(server, notes);
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => api(server.base, method, path, { key: liveKey, body, headers, timeoutMs: 5_000 });
  /** Drain and check phase (no kills): generous timeout, three tries, status 0 when all fail. */
  async function check(method: string, path: string, body?: unknown, key = liveKey): Promise<{ status: number; body: any }> {
    let last = "";
    for (let i = 0; i < 3; i++) {
      try {
        return await api(server.base, method, path, { key, body, timeoutMs: 60_000 });
      } catch (e) {
        last = String(e);
      }
    }
    return { status: 0, body: { error: { message: last } } };
  }

  interface ChargeAck {
    id: string;
    amount: number;
    txid: string;
    paidAtSim: boolean;
    /** A worker is paying it (so two workers never pay one cob). */
    paying?: boolean;
  }
  const charges = new Map<string, ChargeAck>();
  const keyToIds = new Map<string, Set<string>>();
  const keyBodies = new Map<string, { amount: number }>();
  const refunds: { id: string; charge: string; amount: number }[] = [];
  let refundsSupported: boolean | null = null;
  let seq = 0;
  const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(Math.random() * xs.length)] : undefined);

  /** Runs `op` until it gets an answer (a kill cuts it: wait for Cofre, retry with the same key); returns it. */
  async function answered(name: string, op: () => Promise<{ status: number; body: any }>): Promise<{ status: number; body: any } | null> {
    for (let i = 0; i < 5; i++) {
      await crash.up;
      try {
        const r = await op();
        if (r.status >= 200 && r.status < 300) stats.opsOk++;
        else {
          stats.opsRejected++;
          const k = `${name} ${r.status} ${r.body?.error?.code ?? ""}`;
          rejections.set(k, (rejections.get(k) ?? 0) + 1);
        }
        // A 503 while the PSP call or the restart was under way, or the key still held by the
        // attempt a kill cut (409 idempotency_key_in_use): retry the same key.
        if (r.status === 503 && i < 4) continue;
        if (r.status === 409 && r.body?.error?.code === "idempotency_key_in_use" && i < 4) {
          await Bun.sleep(500);
          continue;
        }
        return r;
      } catch {
        stats.opsLost++;
        stats.retriedKeys++;
      }
    }
    return null;
  }

  const ack = (key: string, r: { status: number; body: any } | null) => {
    if (!r || r.status !== 201) return;
    const amount = keyBodies.get(key)!.amount;
    (keyToIds.get(key) ?? keyToIds.set(key, new Set()).get(key)!).add(r.body.id);
    if (!charges.has(r.body.id)) charges.set(r.body.id, { id: r.body.id, amount, txid: r.body.pix?.txid, paidAtSim: false });
  };

  async function createCharge() {
    const key = `soak-live-${++seq}-${Date.now()}`;
    const amount = 1_000 + Math.floor(Math.random() * 50_000);
    keyBodies.set(key, { amount });
    const body = { amount, customer: { name: "Pagador Soak", document: "52998224725" } };
    ack(key, await answered("charge.create", () => call("POST", "/v1/pix/charges", body, { "idempotency-key": key })));
  }

  async function replay() {
    const key = pick([...keyToIds.keys()]);
    if (!key) return createCharge();
    stats.replays++;
    const amount = keyBodies.get(key)!.amount;
    ack(key, await answered("charge.replay", () => call("POST", "/v1/pix/charges", { amount, customer: { name: "Pagador Soak", document: "52998224725" } }, { "idempotency-key": key })));
  }

  async function payAtSim() {
    const c = pick([...charges.values()].filter((c) => !c.paidAtSim && !c.paying));
    if (!c) return createCharge();
    c.paying = true;
    const r = await sim.control("POST", `/_sim/cob/${c.txid}/pay`, { pagador: { nome: "Pagador Soak", cpf: cpf.generate() }, wait_callback: false });
    if (r.status === 200) {
      c.paidAtSim = true;
      stats.paidAtSim++;
    } else notes.push(`pay at the simulator answered ${r.status} for ${c.txid}`);
    c.paying = false;
  }

  async function refund() {
    if (refundsSupported === false) return payAtSim();
    const c = pick([...charges.values()].filter((c) => c.paidAtSim));
    if (!c) return payAtSim();
    const amount = 100 + Math.floor(Math.random() * c.amount * 0.4);
    const key = `soak-live-re-${++seq}`;
    // Through efi: half devoluções (explicit strategy), half the default (a cashout: a Pix sent).
    const devolution = !efi || Math.random() < 0.5;
    if (efi) devolution ? stats.devolutionRefunds++ : stats.cashouts++;
    const body = { idempotencyKey: key, amount, ...(efi && devolution ? { strategy: "devolution" } : {}) };
    const r = await answered("refund.create", () => call("POST", `/v1/payments/${c.id.slice(3)}/refund`, body));
    if (r?.status === 201) {
      refundsSupported = true;
      refunds.push({ id: r.body.id, charge: c.id, amount });
    } else if (r?.status === 400 && r.body?.error?.code === "REFUND_NOT_SUPPORTED") {
      refundsSupported ??= false;
      stats.refundsUnsupported++;
      violations.push(`live refund of ${c.id} answered 400 REFUND_NOT_SUPPORTED`);
    }
  }

  // ---- live payouts through efi ----------------------------------------------------------------
  interface PayoutAck {
    id: string;
    key: string;
    amount: number;
    cancelled: boolean;
  }
  const payouts = new Map<string, PayoutAck>();
  const payoutKeyIds = new Map<string, Set<string>>();
  const payoutBodies = new Map<string, unknown>();

  const ackPayout = (key: string, r: { status: number; body: any } | null) => {
    if (!r || r.status !== 201) return;
    payoutKeyIds.get(key)!.add(r.body.id);
    if (!payouts.has(r.body.id)) payouts.set(r.body.id, { id: r.body.id, key, amount: r.body.amount, cancelled: false });
  };

  async function createPayout() {
    if (!destinationId) return createCharge();
    const key = `soak-live-po-${++seq}-${Date.now()}`;
    // R$ 1.00-25.00: the simulator's bands pay <= 10.00, refuse 10.01-20.00 by callback, refuse above at the request.
    const amount = 100 + Math.floor(Math.random() * 2_400);
    payoutBodies.set(key, { amount, destination_id: destinationId, description: "Saque soak", metadata: { soak_key: key } });
    payoutKeyIds.set(key, new Set());
    ackPayout(key, await answered("payout.create", () => call("POST", "/v1/payouts", payoutBodies.get(key), { "idempotency-key": key })));
  }

  async function replayPayout() {
    const key = pick([...payoutKeyIds.entries()].filter(([, ids]) => ids.size > 0).map(([k]) => k));
    if (!key) return createPayout();
    stats.payoutReplays++;
    ackPayout(key, await answered("payout.replay", () => call("POST", "/v1/payouts", payoutBodies.get(key), { "idempotency-key": key })));
  }

  /** Cancels the newest payout not cancelled yet (still `pending` when it is younger than 2 s). */
  async function cancelPayout() {
    const p = [...payouts.values()].filter((p) => !p.cancelled).at(-1);
    if (!p) return createPayout();
    const r = await answered("payout.cancel", () => call("POST", `/v1/payouts/${p.id}/cancel`, {}));
    if (r?.status === 200) p.cancelled = true;
  }

  async function worker(until: number) {
    while (Date.now() < until) {
      await crash.up;
      const x = Math.random();
      if (x < 0.32) await createCharge();
      else if (x < 0.4) await replay();
      else if (x < 0.64) await payAtSim();
      else if (x < 0.8) await refund();
      else if (x < 0.93) await createPayout();
      else if (x < 0.97) await replayPayout();
      else await cancelPayout();
    }
  }


  const t0 = Date.now();
  const until = Date.now() + seconds * 1000;
  await Promise.all([crash.run(until), ...Array.from({ length: WORKERS }, () => worker(until))]);
  stats.kills += crash.kills;
  await crash.up;

  // Drain: both clocks forward so polls (15 s, 1 min, 5 min...), the sweep (10 min) and refund steps run.
  for (const s of [20, 60, 300, 600, 900]) {
    await sim.control("POST", "/_sim/clock/advance", { seconds: s });
    const adv = await check("POST", "/v1/test_helpers/clock/advance", { seconds: s }, testKey);
    if (adv.status !== 200) notes.push(`clock advance answered ${adv.status}`);
  }
  for (let i = 0; i < 40; i++) {
    let pending = 0;
    for (const c of charges.values()) if (c.paidAtSim && (await check("GET", `/v1/charges/${c.id}`)).body?.status !== "paid") pending++;
    if (pending === 0) break;
    await Bun.sleep(250);
  }
  // Payouts: advance both clocks until none is pending or processing (sends polled with backoff).
  let payoutsInFlight = -1;
  for (let i = 0; destinationId && i < 20; i++) {
    const [pend, proc] = await Promise.all([check("GET", "/v1/payouts?status=pending&limit=1"), check("GET", "/v1/payouts?status=processing&limit=1")]);
    payoutsInFlight = (pend.body?.data?.length ?? 1) + (proc.body?.data?.length ?? 1);
    if (payoutsInFlight === 0) break;
    await sim.control("POST", "/_sim/clock/advance", { seconds: 600 });
    await check("POST", "/v1/test_helpers/clock/advance", { seconds: 600 }, testKey);
    await Bun.sleep(250);
  }

  // ---- checks through the API ------------------------------------------------------------------
  for (const [key, ids] of keyToIds) if (ids.size > 1) violations.push(`idempotency key ${key} produced ${ids.size} charges: ${[...ids].join(", ")}`);
  for (const c of charges.values()) {
    const r = await check("GET", `/v1/charges/${c.id}`);
    if (r.status !== 200) violations.push(`acknowledged charge ${c.id} missing (${r.status})`);
    else if (r.body.amount !== c.amount) violations.push(`charge ${c.id} amount ${r.body.amount} != ${c.amount}`);
    else if (c.paidAtSim && r.body.status !== "paid" && r.body.status !== "refunded") violations.push(`charge ${c.id} paid at the PSP but ${r.body.status}`);
  }
  for (const rf of refunds) {
    const r = await check("GET", `/v1/payments/${rf.charge.slice(3)}/refunds`);
    const list = (Array.isArray(r.body) ? r.body : r.body?.data ?? []) as { id: string }[];
    if (!list.some((x) => x.id === rf.id)) violations.push(`acknowledged refund ${rf.id} of ${rf.charge} missing`);
  }
  const payoutFinal: Record<string, number> = {};
  for (const [key, ids] of payoutKeyIds) if (ids.size > 1) violations.push(`payout idempotency key ${key} produced ${ids.size} payouts: ${[...ids].join(", ")}`);
  for (const p of payouts.values()) {
    const r = await check("GET", `/v1/payouts/${p.id}`);
    if (r.status !== 200) {
      violations.push(`acknowledged payout ${p.id} missing (${r.status})`);
      continue;
    }
    payoutFinal[r.body.status] = (payoutFinal[r.body.status] ?? 0) + 1;
    if (r.body.amount !== p.amount) violations.push(`payout ${p.id} amount ${r.body.amount} != ${p.amount}`);
    if (!["paid", "failed", "cancelled"].includes(r.body.status)) violations.push(`payout ${p.id} still ${r.body.status} after the drain`);
    if (p.cancelled && r.body.status !== "cancelled") violations.push(`payout ${p.id} acknowledged cancelled, now ${r.body.status}`);
  }
  const liveBalance = await check("GET", "/v1/wallets/balance?currency=BRL");
  if (liveBalance.status !== 200) violations.push(`live wallet balance answered ${liveBalance.status}`);

  // ---- database checks (both processes stopped) ------------------------------------------------
  await server.kill("SIGKILL");
  stats.kills++;
  await sim.kill("SIGTERM");
  const cofreDb = new Database(join(server.dataDir, "cofre.db"), { readonly: true });
  const simDb = new Database(join(sim.dir, "psp-sim.db"), { readonly: true });
  const liveTxids = cofreDb.query(`select id, pix_txid txid from transactions where livemode = 1 and pix_txid is not null`).all() as { id: string; txid: string }[];
  const cofreRefunds = new Set((cofreDb.query(`select r.id from refunds r join transactions t on t.id = r.transaction_id where t.livemode = 1`).all() as { id: string }[]).map((r) => r.id));
  const cobs = simDb.query(`select txid, status from cobs`).all() as { txid: string; status: string }[];
  const devolucoes = simDb.query(`select e2eid, id from devolucoes`).all() as { e2eid: string; id: string }[];
  const callbacksFailed = (simDb.query(`select count(*) n from callbacks where status = 'failed'`).get() as { n: number }).n;
  // Payouts and cashouts at the PSP against Cofre (efi only).
  const sendFigures = { sends_at_psp: 0, payout_sends: 0, cashout_sends: 0, payouts_in_db: 0, api_available: liveBalance.body?.available, ledger_available: 0 };
  // The live wallet's available (answered before the kill) against the ledger's lines.
  sendFigures.ledger_available = (
    cofreDb.query(`select coalesce(sum(amount), 0) s from ledger_lines where account_id = ? and livemode = 1 and currency = 'BRL' and ledger_account = 'available'`).get(accountId) as { s: number }
  ).s;
  if (liveBalance.status === 200 && liveBalance.body.available !== sendFigures.ledger_available)
    violations.push(`live wallet available ${liveBalance.body.available} != ledger lines ${sendFigures.ledger_available}`);
  if (liveBalance.status === 200 && liveBalance.body.available < 0) violations.push(`live wallet available is negative: ${liveBalance.body.available}`);
  if (efi) {
    const dbPayouts = cofreDb
      .query(`select id, status, amount, send_id, json_extract(metadata, '$.soak_key') k from payouts where livemode = 1`)
      .all() as { id: string; status: string; amount: number; send_id: string; k: string | null }[];
    const sends = simDb.query(`select id_envio, valor, status from sends`).all() as { id_envio: string; valor: number; status: string }[];
    const refundAmounts = new Map(
      (cofreDb.query(`select r.id, r.amount from refunds r join transactions t on t.id = r.transaction_id where t.livemode = 1`).all() as { id: string; amount: number }[]).map((r) => [r.id.replace(/^re_/, ""), r.amount]),
    );
    sendFigures.sends_at_psp = sends.length;
    sendFigures.payouts_in_db = dbPayouts.length;
    const sendsById = new Map<string, { valor: number; status: string }[]>();
    for (const sd of sends) (sendsById.get(sd.id_envio) ?? sendsById.set(sd.id_envio, []).get(sd.id_envio)!).push(sd);
    for (const [id, list] of sendsById) if (list.length > 1) violations.push(`idEnvio ${id} sent ${list.length} times at the PSP`);
    const byKey = new Map<string, string[]>();
    const payoutBySend = new Map(dbPayouts.map((p) => [p.send_id, p]));
    for (const p of dbPayouts) {
      if (p.k === null || !payoutKeyIds.has(p.k)) violations.push(`payout ${p.id} (database) has key ${p.k}, never sent`);
      else (byKey.get(p.k) ?? byKey.set(p.k, []).get(p.k)!).push(p.id);
      const sent = sendsById.get(p.send_id) ?? [];
      if (p.status === "paid" && !(sent.length === 1 && sent[0]!.status === "REALIZADO")) violations.push(`payout ${p.id} paid but its send at the PSP is ${sent[0]?.status ?? "absent"}`);
      if (p.status === "failed" && sent.some((x) => x.status === "REALIZADO")) violations.push(`payout ${p.id} failed but the PSP paid it`);
      if (p.status === "cancelled" && sent.length) violations.push(`payout ${p.id} cancelled but sent at the PSP`);
      if (sent.length && sent[0]!.valor !== p.amount) violations.push(`payout ${p.id}: amount ${p.amount}, sent ${sent[0]!.valor}`);
    }
    for (const [k, ids] of byKey) if (ids.length > 1) violations.push(`payout key ${k} has ${ids.length} payouts in the database: ${ids.join(", ")}`);
    for (const sd of sends) {
      if (payoutBySend.has(sd.id_envio)) sendFigures.payout_sends++;
      else if (refundAmounts.has(sd.id_envio)) {
        sendFigures.cashout_sends++;
        if (refundAmounts.get(sd.id_envio) !== sd.valor) violations.push(`cashout ${sd.id_envio}: refund ${refundAmounts.get(sd.id_envio)}, sent ${sd.valor}`);
      } else violations.push(`send ${sd.id_envio} at the PSP belongs to no Cofre payout or refund`);
    }
  }
  cofreDb.close();
  simDb.close();
  const cobByTxid = new Map(cobs.map((c) => [c.txid, c.status]));
  const chargeByTxid = new Map<string, string>();
  for (const t of liveTxids) {
    if (chargeByTxid.has(t.txid)) violations.push(`txid ${t.txid} serves two charges (${chargeByTxid.get(t.txid)}, ${t.id})`);
    chargeByTxid.set(t.txid, t.id);
    if (!cobByTxid.has(t.txid)) violations.push(`charge ${t.id}: its cob ${t.txid} does not exist at the PSP`);
  }
  const orphans = cobs.filter((c) => !chargeByTxid.has(c.txid));
  const orphansActive = orphans.filter((c) => c.status === "ATIVA").length;
  if (process.env.SOAK_STRICT_ORPHANS !== "0" && orphans.length) violations.push(`${orphans.length} cob(s) at the PSP belong to no charge (${orphansActive} active)`);
  // A devolução id is the refund id without `re_` (extensions.md "Refund").
  const orphanDevolucoes = devolucoes.filter((d) => !cofreRefunds.has(d.id) && !cofreRefunds.has(`re_${d.id}`));
  for (const d of orphanDevolucoes.slice(0, 10)) violations.push(`devolução ${d.id} of ${d.e2eid} belongs to no Cofre refund (duplicate or lost)`);
  const verify = await server.cli(["ledger", "verify"]);
  if (verify.code !== 0) violations.push(`cofre ledger verify exited ${verify.code}: ${verify.stdout.slice(0, 400)} ${verify.stderr.slice(0, 200)}`);

  const summary = {
    seconds,
    kills: stats.kills,
    operations_acknowledged: stats.opsOk,
    operations_lost_in_flight: stats.opsLost,
    operations_rejected: stats.opsRejected,
    idempotent_retries: stats.retriedKeys,
    replays_of_answered_keys: stats.replays,
    charges_acknowledged: charges.size,
    live_charges_in_db: liveTxids.length,
    cobs_at_psp: cobs.length,
    orphan_cobs_active: orphansActive,
    orphan_cobs_withdrawn: orphans.length - orphansActive,
    paid_at_psp: stats.paidAtSim,
    callbacks_lost_to_kills: callbacksFailed,
    refunds_acknowledged: refunds.length,
    refunds: refundsSupported === false ? "not supported by this build" : refundsSupported ? "exercised" : "not reached",
    devolucoes_at_psp: devolucoes.length,
    orphan_devolucoes: orphanDevolucoes.length,
    connection: efi ? "efi" : "bcb_pix_v2",
    refunds_devolution_cashout: `${stats.devolutionRefunds} / ${stats.cashouts}`,
    payouts_acknowledged: payouts.size,
    payout_keys_sent: payoutKeyIds.size,
    payout_replays_of_answered_keys: stats.payoutReplays,
    payouts_final: JSON.stringify(payoutFinal),
    payouts_in_flight_after_drain: payoutsInFlight,
    ...sendFigures,
    ledger_verify_exit: verify.code,
    violations: violations.length,
    wall_ms: Date.now() - t0,
  };
  console.log("\nCofre live crash soak (psp-sim)");
  for (const [k, v] of Object.entries(summary)) console.log(`  ${k.padEnd(32)} ${v}`);
  for (const [k, n] of [...rejections].sort((a, b) => b[1] - a[1])) console.log(`  rejected: ${k} x${n}`);
  for (const n of [...new Set(notes)]) console.log(`  note: ${n}`);
  if (orphans.length) console.log(`  note: ${orphans.length} cob(s) at the PSP belong to no charge (a kill between the PSP call and the commit); a violation unless SOAK_STRICT_ORPHANS=0`);
  for (const v of violations.slice(0, 50)) console.log(`  VIOLATION: ${v}`);
  console.log(JSON.stringify({ soak_live: summary }));
  if (violations.length) console.log(`  data dirs kept for inspection: ${server.dataDir} ${sim.dir}`);
  else server.removeData();
  return violations.length ? 1 : 0;
}

if (import.meta.main) process.exit(await runLiveSoak(Number(process.argv[2] ?? process.env.SOAK_SECONDS ?? 60)));
