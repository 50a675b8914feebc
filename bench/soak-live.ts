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
 * Live cards (issue 26 §5): `cofre stripe-sim` runs beside them (never killed; webhook retries
 * 0.3-8 s, refunds settle after 1 s) and the account's card provider is connected to it
 * (`SOAK_LIVE_CARDS=0` skips). The workers also create live CREDIT_CARD payments under
 * idempotency keys (cut by a kill -> retried with the same key; some answered keys replayed), pay
 * some as the payer does (the checkout page's link to the hosted page, then its card form, or the
 * simulator's control route), and refund paid ones; the simulator's signed events reach Cofre or,
 * during a kill, wait for their retry. Before the clocks move (Stripe signatures are checked
 * against Cofre's clock) the soak waits for every paid card to read APPROVED and every card refund
 * to be final, then checks:
 *   - every acknowledged card payment exists with its amount; one key never produced two;
 *   - one Checkout Session per transaction at the simulator (listed through its API), every
 *     session belongs to a Cofre transaction, every paid session's transaction is APPROVED (or
 *     REFUNDED);
 *   - every acknowledged card refund exists; every Stripe refund carries the id of one Cofre refund
 *     (never two for one), with its amount, and the statuses agree (succeeded = REFUNDED, failed =
 *     FAILED).
 * Prints a summary and a JSON line; exits 1 on any violation.
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { cpf } from "cpf-cnpj-validator";
import { CrashLoop } from "./lib/killer";
import { SimProcess } from "./lib/psp-sim";
import { StripeSimProcess } from "./lib/stripe-sim";
import { api, cliInit, CofreServer, ensureBinary } from "./lib/server";

const OPERATOR_TOKEN = "soak_live_operator_token_0123456789";
const WORKERS = 4;

export async function runLiveSoak(seconds: number): Promise<number> {
  await ensureBinary(process.env.SOAK_REBUILD === "1");
  const violations: string[] = [];
  const notes: string[] = [];
  const rejections = new Map<string, number>();
  const stats = {
    kills: 0,
    opsOk: 0,
    opsLost: 0,
    opsRejected: 0,
    retriedKeys: 0,
    replays: 0,
    paidAtSim: 0,
    refundsUnsupported: 0,
    payoutReplays: 0,
    cashouts: 0,
    devolutionRefunds: 0,
  };

  const sim = new SimProcess({ autoSettle: true });
  const server = new CofreServer({ env: { COFRE_TEST_CLOCK: "1", COFRE_OPERATOR_TOKEN: OPERATOR_TOKEN } });
  await sim.init();
  const accountId = await cliInit(server, "soak-live@example.com", "soak live password 1", "Soak Loja Viva");
  await Promise.all([sim.start(), server.start()]);
  const login = await api(server.base, "POST", "/v1/auth/login", {
    body: { email: "soak-live@example.com", password: "soak live password 1" },
  });
  const issue = async (test: boolean) =>
    (await api(server.base, "POST", "/v1/api-keys", { bearer: login.body.access_token, body: { label: "soak", test } }))
      .body.apiKey as string;
  const liveKey = await issue(false);
  const testKey = await issue(true);
  const op = await api(server.base, "PATCH", `/v1/operator/accounts/${accountId}`, {
    bearer: OPERATOR_TOKEN,
    body: { settlement_delay_seconds: 0 },
  });
  if (op.status !== 200) notes.push(`operator settings answered ${op.status}: refunds may meet insufficient_balance`);
  const efi = sim.efiBody !== null && process.env.SOAK_LIVE_EFI !== "0";
  const conn = await api(server.base, "PUT", `/v1/operator/accounts/${accountId}/pix-provider`, {
    bearer: OPERATOR_TOKEN,
    body: efi ? sim.efiBody : sim.body,
  });
  if (conn.status !== 200) throw new Error(`connect: ${conn.status} ${JSON.stringify(conn.body)}`);
  let destinationId: string | null = null;
  if (efi) {
    const d = await api(server.base, "POST", "/v1/payout_destinations", {
      bearer: login.body.access_token,
      body: { type: "pix_key", pix_key: "52998224725", pix_key_type: "cpf", name: "Fulano Soak" },
    });
    if (d.status === 201) destinationId = d.body.id;
    else notes.push(`payout destination answered ${d.status}: payouts skipped`);
    // 2 s in `pending` (test clock) so the newest payouts can still be cancelled.
    const ps = await api(server.base, "PATCH", `/v1/operator/accounts/${accountId}`, {
      bearer: OPERATOR_TOKEN,
      body: { payout_delay_seconds: 2 },
    });
    if (ps.status !== 200) notes.push(`payout settings answered ${ps.status}`);
  } else notes.push("no efi connection (SOAK_LIVE_EFI=0 or an older psp-sim): payouts skipped");
  // Live cards through stripe-sim (never killed); Cofre registers its webhook endpoint there on connect.
  let stripe: StripeSimProcess | null = null;
  if (process.env.SOAK_LIVE_CARDS !== "0") {
    stripe = new StripeSimProcess();
    await stripe.init();
    await stripe.start();
    const cc = await api(server.base, "PUT", `/v1/operator/accounts/${accountId}/card-provider`, {
      bearer: OPERATOR_TOKEN,
      body: stripe.body,
    });
    if (cc.status !== 200) throw new Error(`card connect: ${cc.status} ${JSON.stringify(cc.body)}`);
  } else notes.push("SOAK_LIVE_CARDS=0: live cards skipped");

  const crash = new CrashLoop(server, notes);
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    api(server.base, method, path, { key: liveKey, body, headers, timeoutMs: 5_000 });
  /** Drain and check phase (no kills): generous timeout, three tries, status 0 when all fail. */
  async function check(
    method: string,
    path: string,
    body?: unknown,
    key = liveKey,
  ): Promise<{ status: number; body: any }> {
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
  async function answered(
    name: string,
    op: () => Promise<{ status: number; body: any }>,
  ): Promise<{ status: number; body: any } | null> {
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
    if (r?.status !== 201) return;
    const amount = keyBodies.get(key)!.amount;
    (keyToIds.get(key) ?? keyToIds.set(key, new Set()).get(key)!).add(r.body.id);
    if (!charges.has(r.body.id))
      charges.set(r.body.id, { id: r.body.id, amount, txid: r.body.pix?.txid, paidAtSim: false });
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
    ack(
      key,
      await answered("charge.replay", () =>
        call(
          "POST",
          "/v1/pix/charges",
          { amount, customer: { name: "Pagador Soak", document: "52998224725" } },
          { "idempotency-key": key },
        ),
      ),
    );
  }

  async function payAtSim() {
    const c = pick([...charges.values()].filter((c) => !c.paidAtSim && !c.paying));
    if (!c) return createCharge();
    c.paying = true;
    const r = await sim.control("POST", `/_sim/cob/${c.txid}/pay`, {
      pagador: { nome: "Pagador Soak", cpf: cpf.generate() },
      wait_callback: false,
    });
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
    if (r?.status !== 201) return;
    payoutKeyIds.get(key)!.add(r.body.id);
    if (!payouts.has(r.body.id))
      payouts.set(r.body.id, { id: r.body.id, key, amount: r.body.amount, cancelled: false });
  };

  async function createPayout() {
    if (!destinationId) return createCharge();
    const key = `soak-live-po-${++seq}-${Date.now()}`;
    // R$ 1.00-25.00: the simulator's bands pay <= 10.00, refuse 10.01-20.00 by callback, refuse above at the request.
    const amount = 100 + Math.floor(Math.random() * 2_400);
    payoutBodies.set(key, {
      amount,
      destination_id: destinationId,
      description: "Saque soak",
      metadata: { soak_key: key },
    });
    payoutKeyIds.set(key, new Set());
    ackPayout(
      key,
      await answered("payout.create", () =>
        call("POST", "/v1/payouts", payoutBodies.get(key), { "idempotency-key": key }),
      ),
    );
  }

  async function replayPayout() {
    const key = pick([...payoutKeyIds.entries()].filter(([, ids]) => ids.size > 0).map(([k]) => k));
    if (!key) return createPayout();
    stats.payoutReplays++;
    ackPayout(
      key,
      await answered("payout.replay", () =>
        call("POST", "/v1/payouts", payoutBodies.get(key), { "idempotency-key": key }),
      ),
    );
  }

  /** Cancels the newest payout not cancelled yet (still `pending` when it is younger than 2 s). */
  async function cancelPayout() {
    const p = [...payouts.values()].filter((p) => !p.cancelled).at(-1);
    if (!p) return createPayout();
    const r = await answered("payout.cancel", () => call("POST", `/v1/payouts/${p.id}/cancel`, {}));
    if (r?.status === 200) p.cancelled = true;
  }

  // ---- live cards through stripe-sim ------------------------------------------------------------
  interface CardAck {
    id: string;
    amount: number;
    paidAtSim: boolean;
    paying?: boolean;
    /** Sum of acknowledged refunds, minor units. */
    refunded: number;
  }
  const cards = new Map<string, CardAck>();
  const cardKeyIds = new Map<string, Set<string>>();
  const cardBodies = new Map<string, { amount: number }>();
  const cardRefunds: { id: string; payment: string; amount: number }[] = [];
  const cardStats = { created: 0, replays: 0, paidByForm: 0, paidByControl: 0, payFailed: 0, refunds: 0 };

  const ackCard = (key: string, r: { status: number; body: any } | null) => {
    if (r?.status !== 201) return;
    cardKeyIds.get(key)!.add(r.body.id);
    if (!cards.has(r.body.id))
      cards.set(r.body.id, { id: r.body.id, amount: cardBodies.get(key)!.amount, paidAtSim: false, refunded: 0 });
  };
  const cardBody = (key: string) => ({
    amount: cardBodies.get(key)!.amount,
    paymentMethods: ["CREDIT_CARD"],
    idempotencyKey: key,
    metadata: { description: "Soak cartão" },
  });

  async function createCard() {
    const key = `soak-card-${++seq}-${Date.now()}`;
    cardBodies.set(key, { amount: 1_000 + Math.floor(Math.random() * 50_000) });
    cardKeyIds.set(key, new Set());
    cardStats.created++;
    ackCard(key, await answered("card.create", () => call("POST", "/v1/payments", cardBody(key))));
  }

  async function replayCard() {
    const key = pick([...cardKeyIds.entries()].filter(([, ids]) => ids.size > 0).map(([k]) => k));
    if (!key) return createCard();
    cardStats.replays++;
    ackCard(key, await answered("card.replay", () => call("POST", "/v1/payments", cardBody(key))));
  }

  /** Pays an unpaid card as the payer does: the checkout page's link to the hosted page, then its form (or the control route). */
  async function payCard() {
    const c = pick([...cards.values()].filter((c) => !c.paidAtSim && !c.paying));
    if (!c) return createCard();
    c.paying = true;
    try {
      await crash.up;
      const page = await fetch(`${server.base}/c/${c.id}`, { signal: AbortSignal.timeout(5_000) }).then((r) =>
        r.text(),
      );
      const m = /href="([^"]*\/pay\/(cs_[A-Za-z0-9_]+))"/.exec(page);
      if (!m) {
        cardStats.payFailed++;
        return;
      }
      if (Math.random() < 0.5) {
        const res = await fetch(m[1]!, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            method: "card",
            number: "4242424242424242",
            exp: "12/34",
            cvc: "123",
            name: "Pagador Soak",
          }).toString(),
          redirect: "manual",
        });
        await res.text();
        if (res.status === 303) {
          c.paidAtSim = true;
          cardStats.paidByForm++;
        } else cardStats.payFailed++;
      } else {
        const r = await stripe!.control("POST", `/_sim/checkout/sessions/${m[2]}/pay`, {});
        if (r.status === 200 && r.body.outcome === "paid") {
          c.paidAtSim = true;
          cardStats.paidByControl++;
        } else cardStats.payFailed++;
      }
    } catch {
      cardStats.payFailed++; // the checkout page was cut by a kill: another worker pays it later
    } finally {
      c.paying = false;
    }
  }

  async function refundCard() {
    const c = pick([...cards.values()].filter((c) => c.paidAtSim && c.refunded < c.amount));
    if (!c) return payCard();
    const rest = c.amount - c.refunded;
    const amount = Math.random() < 0.25 ? rest : Math.min(rest, 100 + Math.floor(Math.random() * c.amount * 0.4));
    const body = { idempotencyKey: `soak-card-re-${++seq}`, amount };
    const r = await answered("card.refund", () => call("POST", `/v1/payments/${c.id}/refund`, body));
    if (r?.status === 201) {
      c.refunded += amount;
      cardStats.refunds++;
      cardRefunds.push({ id: r.body.id, payment: c.id, amount });
    }
  }

  async function cardOp() {
    const x = Math.random();
    if (x < 0.4) await createCard();
    else if (x < 0.5) await replayCard();
    else if (x < 0.8) await payCard();
    else await refundCard();
  }

  async function worker(until: number) {
    while (Date.now() < until) {
      await crash.up;
      if (stripe && Math.random() < 0.35) {
        await cardOp();
        continue;
      }
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

  // Cards first, before any clock moves (Cofre checks Stripe signatures against its own clock):
  // run the simulator's waiting deliveries now and wait for paid cards and card refunds to settle.
  let cardsUnsettled = 0;
  /** Paid cards not APPROVED, and card refunds not final, after the settle wait (diagnosed after the run). */
  let unsettledCards: string[] = [];
  let unsettledRefunds: string[] = [];
  for (let i = 0; stripe && i < 60; i++) {
    await stripe.control("POST", "/_sim/events/flush");
    unsettledCards = [];
    unsettledRefunds = [];
    for (const c of cards.values()) {
      if (!c.paidAtSim) continue;
      const r = await check("GET", `/v1/payments/${c.id}`);
      if (!["APPROVED", "REFUNDED"].includes(r.body?.status)) unsettledCards.push(c.id);
    }
    for (const c of new Set(cardRefunds.map((x) => x.payment))) {
      const r = await check("GET", `/v1/payments/${c}/refunds`);
      const list = (Array.isArray(r.body) ? r.body : (r.body?.data ?? [])) as { id: string; status: string }[];
      unsettledRefunds.push(...list.filter((x) => x.status !== "REFUNDED" && x.status !== "FAILED").map((x) => x.id));
    }
    cardsUnsettled = unsettledCards.length + unsettledRefunds.length;
    if (cardsUnsettled === 0) break;
    await Bun.sleep(500);
  }
  if (cardsUnsettled) {
    notes.push(
      `${cardsUnsettled} paid card(s) or card refund(s) still unsettled 30 s after the run, before the clocks moved (left to the polls of the clock advance)`,
    );
    // Why: each one's events at the simulator (delivery status, HTTP answers), whether Cofre
    // recorded them, and its jobs (a status check a kill cut stays leased until its lease ends).
    const db = new Database(join(server.dataDir, "cofre.db"), { readonly: true });
    const evs = ((await stripe!.control("GET", "/_sim/events")).body?.data ?? []) as {
      id: string;
      type: string;
      object: string | null;
      deliveries: { status: string; attempts: { error: string | null; http_status: number | null }[] }[];
    }[];
    const sessionOf = new Map(
      (await stripe!.listAll("/v1/checkout/sessions")).map((x) => [x.client_reference_id as string, x.id as string]),
    );
    const refundOf = new Map(
      (await stripe!.listAll("/v1/refunds")).map((x) => [x.metadata?.cofre_refund_id as string, x.id as string]),
    );
    const taken = new Set(
      (db.query(`select event_id from card_provider_events`).all() as { event_id: string }[]).map((r) => r.event_id),
    );
    const explain = (kind: string, id: string, object: string | undefined) => {
      const seen = evs
        .filter((e) => e.object === object)
        .map(
          (e) =>
            `${e.type} ${e.deliveries.map((d) => `${d.status} [${d.attempts.map((a) => a.http_status ?? a.error?.slice(0, 24)).join(",")}]`).join(" ")} ${taken.has(e.id) ? "recorded" : "not recorded"}`,
        );
      const jobs = db
        .query(
          `select kind, state, due_at - ? as due_in_ms, lease_until - ? as lease_left_ms, attempts from jobs where payload like ?`,
        )
        .all(Date.now(), Date.now(), `%${id}%`);
      notes.push(
        `unsettled ${kind} ${id} (${object}): events ${seen.join("; ") || "none"}; jobs ${JSON.stringify(jobs)}`,
      );
    };
    for (const id of unsettledCards.slice(0, 5)) explain("card", id, sessionOf.get(id));
    for (const id of unsettledRefunds.slice(0, 5)) explain("refund", id, refundOf.get(id));
    db.close();
  }

  // Drain: both clocks forward so polls (15 s, 1 min, 5 min...), the sweep (10 min) and refund steps run.
  for (const s of [20, 60, 300, 600, 900]) {
    await sim.control("POST", "/_sim/clock/advance", { seconds: s });
    const adv = await check("POST", "/v1/test_helpers/clock/advance", { seconds: s }, testKey);
    if (adv.status !== 200) notes.push(`clock advance answered ${adv.status}`);
  }
  for (let i = 0; i < 40; i++) {
    let pending = 0;
    for (const c of charges.values())
      if (c.paidAtSim && (await check("GET", `/v1/charges/${c.id}`)).body?.status !== "paid") pending++;
    if (pending === 0) break;
    await Bun.sleep(250);
  }
  // Payouts: advance both clocks until none is pending or processing (sends polled with backoff).
  let payoutsInFlight = -1;
  for (let i = 0; destinationId && i < 20; i++) {
    const [pend, proc] = await Promise.all([
      check("GET", "/v1/payouts?status=pending&limit=1"),
      check("GET", "/v1/payouts?status=processing&limit=1"),
    ]);
    payoutsInFlight = (pend.body?.data?.length ?? 1) + (proc.body?.data?.length ?? 1);
    if (payoutsInFlight === 0) break;
    await sim.control("POST", "/_sim/clock/advance", { seconds: 600 });
    await check("POST", "/v1/test_helpers/clock/advance", { seconds: 600 }, testKey);
    await Bun.sleep(250);
  }

  // ---- checks through the API ------------------------------------------------------------------
  for (const [key, ids] of keyToIds)
    if (ids.size > 1) violations.push(`idempotency key ${key} produced ${ids.size} charges: ${[...ids].join(", ")}`);
  for (const c of charges.values()) {
    const r = await check("GET", `/v1/charges/${c.id}`);
    if (r.status !== 200) violations.push(`acknowledged charge ${c.id} missing (${r.status})`);
    else if (r.body.amount !== c.amount) violations.push(`charge ${c.id} amount ${r.body.amount} != ${c.amount}`);
    else if (c.paidAtSim && r.body.status !== "paid" && r.body.status !== "refunded")
      violations.push(`charge ${c.id} paid at the PSP but ${r.body.status}`);
  }
  for (const rf of refunds) {
    const r = await check("GET", `/v1/payments/${rf.charge.slice(3)}/refunds`);
    const list = (Array.isArray(r.body) ? r.body : (r.body?.data ?? [])) as { id: string }[];
    if (!list.some((x) => x.id === rf.id)) violations.push(`acknowledged refund ${rf.id} of ${rf.charge} missing`);
  }
  const payoutFinal: Record<string, number> = {};
  for (const [key, ids] of payoutKeyIds)
    if (ids.size > 1)
      violations.push(`payout idempotency key ${key} produced ${ids.size} payouts: ${[...ids].join(", ")}`);
  for (const p of payouts.values()) {
    const r = await check("GET", `/v1/payouts/${p.id}`);
    if (r.status !== 200) {
      violations.push(`acknowledged payout ${p.id} missing (${r.status})`);
      continue;
    }
    payoutFinal[r.body.status] = (payoutFinal[r.body.status] ?? 0) + 1;
    if (r.body.amount !== p.amount) violations.push(`payout ${p.id} amount ${r.body.amount} != ${p.amount}`);
    if (!["paid", "failed", "cancelled"].includes(r.body.status))
      violations.push(`payout ${p.id} still ${r.body.status} after the drain`);
    if (p.cancelled && r.body.status !== "cancelled")
      violations.push(`payout ${p.id} acknowledged cancelled, now ${r.body.status}`);
  }
  if (stripe && cardStats.created > 0 && cards.size === 0)
    violations.push(`no live card payment was acknowledged (${cardStats.created} creates sent)`);
  if (stripe && cards.size > 0 && cardRefunds.length === 0) violations.push("no live card refund was acknowledged");
  for (const [key, ids] of cardKeyIds)
    if (ids.size > 1)
      violations.push(`card idempotency key ${key} produced ${ids.size} payments: ${[...ids].join(", ")}`);
  const cardStatus = new Map<string, string>();
  for (const c of cards.values()) {
    const r = await check("GET", `/v1/payments/${c.id}`);
    if (r.status !== 200) violations.push(`acknowledged card payment ${c.id} missing (${r.status})`);
    else if (r.body.amount !== c.amount) violations.push(`card payment ${c.id} amount ${r.body.amount} != ${c.amount}`);
    else {
      cardStatus.set(c.id, r.body.status);
      if (c.paidAtSim && !["APPROVED", "REFUNDED"].includes(r.body.status))
        violations.push(`card payment ${c.id} paid at Stripe but ${r.body.status}`);
    }
  }
  for (const rf of cardRefunds) {
    const r = await check("GET", `/v1/payments/${rf.payment}/refunds`);
    const list = (Array.isArray(r.body) ? r.body : (r.body?.data ?? [])) as { id: string }[];
    if (!list.some((x) => x.id === rf.id))
      violations.push(`acknowledged card refund ${rf.id} of ${rf.payment} missing`);
  }
  // Sessions and refunds at Stripe, through its API (the simulator keeps running until here).
  const sessions = stripe ? await stripe.listAll("/v1/checkout/sessions") : [];
  const stripeRefunds = stripe ? await stripe.listAll("/v1/refunds") : [];
  // The simulator's deliveries to Cofre: attempts a kill cut (refused or reset), and deliveries that gave up.
  const stripeEvents = stripe
    ? (((await stripe.control("GET", "/_sim/events")).body?.data ?? []) as {
        id: string;
        type: string;
        object: string | null;
        deliveries: { status: string; attempts: { error: string | null; http_status: number | null }[] }[];
      }[])
    : [];
  const cardEventFigures = {
    stripe_events: stripeEvents.length,
    stripe_attempts_failed: stripeEvents.reduce(
      (n, e) => n + e.deliveries.reduce((m, d) => m + d.attempts.filter((a) => a.error !== null).length, 0),
      0,
    ),
    stripe_deliveries_given_up: stripeEvents.reduce(
      (n, e) => n + e.deliveries.filter((d) => d.status === "failed").length,
      0,
    ),
  };
  const liveBalance = await check("GET", "/v1/wallets/balance?currency=BRL");
  if (liveBalance.status !== 200) violations.push(`live wallet balance answered ${liveBalance.status}`);

  // ---- database checks (both processes stopped) ------------------------------------------------
  await server.kill("SIGKILL");
  stats.kills++;
  await sim.kill("SIGTERM");
  await stripe?.kill("SIGTERM");
  const cofreDb = new Database(join(server.dataDir, "cofre.db"), { readonly: true });
  const simDb = new Database(join(sim.dir, "psp-sim.db"), { readonly: true });
  const liveTxids = cofreDb
    .query(`select id, pix_txid txid from transactions where livemode = 1 and pix_txid is not null`)
    .all() as { id: string; txid: string }[];
  const cofreRefunds = new Set(
    (
      cofreDb
        .query(`select r.id from refunds r join transactions t on t.id = r.transaction_id where t.livemode = 1`)
        .all() as { id: string }[]
    ).map((r) => r.id),
  );
  const cobs = simDb.query(`select txid, status from cobs`).all() as { txid: string; status: string }[];
  const devolucoes = simDb.query(`select e2eid, id from devolucoes`).all() as { e2eid: string; id: string }[];
  const callbacksFailed = (
    simDb.query(`select count(*) n from callbacks where status = 'failed'`).get() as { n: number }
  ).n;
  // Payouts and cashouts at the PSP against Cofre (efi only).
  const sendFigures = {
    sends_at_psp: 0,
    payout_sends: 0,
    cashout_sends: 0,
    payouts_in_db: 0,
    api_available: liveBalance.body?.available,
    ledger_available: 0,
  };
  // The live wallet's available (answered before the kill) against the ledger's lines.
  sendFigures.ledger_available = (
    cofreDb
      .query(
        `select coalesce(sum(amount), 0) s from ledger_lines where account_id = ? and livemode = 1 and currency = 'BRL' and ledger_account = 'available'`,
      )
      .get(accountId) as { s: number }
  ).s;
  if (liveBalance.status === 200 && liveBalance.body.available !== sendFigures.ledger_available)
    violations.push(
      `live wallet available ${liveBalance.body.available} != ledger lines ${sendFigures.ledger_available}`,
    );
  if (liveBalance.status === 200 && liveBalance.body.available < 0)
    violations.push(`live wallet available is negative: ${liveBalance.body.available}`);
  if (efi) {
    const dbPayouts = cofreDb
      .query(
        `select id, status, amount, send_id, json_extract(metadata, '$.soak_key') k from payouts where livemode = 1`,
      )
      .all() as { id: string; status: string; amount: number; send_id: string; k: string | null }[];
    const sends = simDb.query(`select id_envio, valor, status from sends`).all() as {
      id_envio: string;
      valor: number;
      status: string;
    }[];
    const refundAmounts = new Map(
      (
        cofreDb
          .query(
            `select r.id, r.amount from refunds r join transactions t on t.id = r.transaction_id where t.livemode = 1`,
          )
          .all() as { id: string; amount: number }[]
      ).map((r) => [r.id.replace(/^re_/, ""), r.amount]),
    );
    sendFigures.sends_at_psp = sends.length;
    sendFigures.payouts_in_db = dbPayouts.length;
    const sendsById = new Map<string, { valor: number; status: string }[]>();
    for (const sd of sends) (sendsById.get(sd.id_envio) ?? sendsById.set(sd.id_envio, []).get(sd.id_envio)!).push(sd);
    for (const [id, list] of sendsById)
      if (list.length > 1) violations.push(`idEnvio ${id} sent ${list.length} times at the PSP`);
    const byKey = new Map<string, string[]>();
    const payoutBySend = new Map(dbPayouts.map((p) => [p.send_id, p]));
    for (const p of dbPayouts) {
      if (p.k === null || !payoutKeyIds.has(p.k))
        violations.push(`payout ${p.id} (database) has key ${p.k}, never sent`);
      else (byKey.get(p.k) ?? byKey.set(p.k, []).get(p.k)!).push(p.id);
      const sent = sendsById.get(p.send_id) ?? [];
      if (p.status === "paid" && !(sent.length === 1 && sent[0]!.status === "REALIZADO"))
        violations.push(`payout ${p.id} paid but its send at the PSP is ${sent[0]?.status ?? "absent"}`);
      if (p.status === "failed" && sent.some((x) => x.status === "REALIZADO"))
        violations.push(`payout ${p.id} failed but the PSP paid it`);
      if (p.status === "cancelled" && sent.length) violations.push(`payout ${p.id} cancelled but sent at the PSP`);
      if (sent.length && sent[0]!.valor !== p.amount)
        violations.push(`payout ${p.id}: amount ${p.amount}, sent ${sent[0]!.valor}`);
    }
    for (const [k, ids] of byKey)
      if (ids.length > 1)
        violations.push(`payout key ${k} has ${ids.length} payouts in the database: ${ids.join(", ")}`);
    for (const sd of sends) {
      if (payoutBySend.has(sd.id_envio)) sendFigures.payout_sends++;
      else if (refundAmounts.has(sd.id_envio)) {
        sendFigures.cashout_sends++;
        if (refundAmounts.get(sd.id_envio) !== sd.valor)
          violations.push(`cashout ${sd.id_envio}: refund ${refundAmounts.get(sd.id_envio)}, sent ${sd.valor}`);
      } else violations.push(`send ${sd.id_envio} at the PSP belongs to no Cofre payout or refund`);
    }
  }
  // Cards: one session per transaction, each belonging to one; paid ones APPROVED; refunds agree.
  const cardFigures = {
    sessions_at_stripe: sessions.length,
    sessions_paid: 0,
    orphan_sessions: 0,
    stripe_refunds: stripeRefunds.length,
    card_refunds_in_db: 0,
  };
  if (stripe) {
    const txs = new Map(
      (
        cofreDb.query(`select id, status, amount from transactions where livemode = 1`).all() as {
          id: string;
          status: string;
          amount: number;
        }[]
      ).map((t) => [t.id, t]),
    );
    const perTx = new Map<string, string[]>();
    for (const s of sessions) {
      const tx = s.client_reference_id as string | null;
      if (!tx || !txs.has(tx)) {
        cardFigures.orphan_sessions++;
        violations.push(`checkout session ${s.id} (${s.status}) belongs to no Cofre transaction (${tx})`);
        continue;
      }
      (perTx.get(tx) ?? perTx.set(tx, []).get(tx)!).push(s.id);
      if (s.amount_total !== txs.get(tx)!.amount)
        violations.push(`session ${s.id}: amount ${s.amount_total}, transaction ${tx} ${txs.get(tx)!.amount}`);
      if (s.payment_status === "paid") {
        cardFigures.sessions_paid++;
        const st = txs.get(tx)!.status;
        if (st !== "APPROVED" && st !== "REFUNDED")
          violations.push(`session ${s.id} paid at Stripe but transaction ${tx} is ${st}`);
      }
    }
    for (const [tx, ids] of perTx)
      if (ids.length > 1) violations.push(`transaction ${tx} has ${ids.length} checkout sessions: ${ids.join(", ")}`);
    for (const c of cards.values())
      if (!perTx.has(c.id)) violations.push(`card payment ${c.id} has no checkout session at Stripe`);
    const dbCardRefunds = new Map(
      (
        cofreDb
          .query(
            `select r.id, r.amount, r.status from refunds r join transactions t on t.id = r.transaction_id where t.livemode = 1 and r.method = 'CREDIT_CARD'`,
          )
          .all() as { id: string; amount: number; status: string }[]
      ).map((r) => [r.id, r]),
    );
    cardFigures.card_refunds_in_db = dbCardRefunds.size;
    const perRefund = new Map<string, number>();
    for (const sr of stripeRefunds) {
      const rid = sr.metadata?.cofre_refund_id as string | undefined;
      const mine = rid ? dbCardRefunds.get(rid) : undefined;
      if (!rid || !mine) {
        violations.push(`Stripe refund ${sr.id} belongs to no Cofre refund (${rid})`);
        continue;
      }
      perRefund.set(rid, (perRefund.get(rid) ?? 0) + 1);
      if (sr.amount !== mine.amount)
        violations.push(`Stripe refund ${sr.id}: amount ${sr.amount}, Cofre refund ${rid} ${mine.amount}`);
      const want = sr.status === "succeeded" ? "REFUNDED" : sr.status === "failed" ? "FAILED" : null;
      if (want && mine.status !== want)
        violations.push(`Stripe refund ${sr.id} ${sr.status} but Cofre refund ${rid} is ${mine.status}`);
    }
    for (const [rid, n] of perRefund) if (n > 1) violations.push(`Cofre refund ${rid} made ${n} refunds at Stripe`);
    for (const [rid, r] of dbCardRefunds)
      if (!perRefund.has(rid) && r.status !== "FAILED")
        violations.push(`Cofre card refund ${rid} (${r.status}) has no refund at Stripe`);
  }
  cofreDb.close();
  simDb.close();
  const cobByTxid = new Map(cobs.map((c) => [c.txid, c.status]));
  const chargeByTxid = new Map<string, string>();
  for (const t of liveTxids) {
    if (chargeByTxid.has(t.txid))
      violations.push(`txid ${t.txid} serves two charges (${chargeByTxid.get(t.txid)}, ${t.id})`);
    chargeByTxid.set(t.txid, t.id);
    if (!cobByTxid.has(t.txid)) violations.push(`charge ${t.id}: its cob ${t.txid} does not exist at the PSP`);
  }
  const orphans = cobs.filter((c) => !chargeByTxid.has(c.txid));
  const orphansActive = orphans.filter((c) => c.status === "ATIVA").length;
  if (process.env.SOAK_STRICT_ORPHANS !== "0" && orphans.length)
    violations.push(`${orphans.length} cob(s) at the PSP belong to no charge (${orphansActive} active)`);
  // A devolução id is the refund id without `re_` (extensions.md "Refund").
  const orphanDevolucoes = devolucoes.filter((d) => !cofreRefunds.has(d.id) && !cofreRefunds.has(`re_${d.id}`));
  for (const d of orphanDevolucoes.slice(0, 10))
    violations.push(`devolução ${d.id} of ${d.e2eid} belongs to no Cofre refund (duplicate or lost)`);
  const verify = await server.cli(["ledger", "verify"]);
  if (verify.code !== 0)
    violations.push(
      `cofre ledger verify exited ${verify.code}: ${verify.stdout.slice(0, 400)} ${verify.stderr.slice(0, 200)}`,
    );

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
    refunds:
      refundsSupported === false ? "not supported by this build" : refundsSupported ? "exercised" : "not reached",
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
    card_creates_sent: cardStats.created,
    card_replays_of_answered_keys: cardStats.replays,
    card_payments_acknowledged: cards.size,
    cards_paid_form_control: `${cardStats.paidByForm} / ${cardStats.paidByControl}`,
    card_pay_attempts_failed: cardStats.payFailed,
    card_refunds_acknowledged: cardRefunds.length,
    cards_unsettled_before_clock: cardsUnsettled,
    card_final_statuses: JSON.stringify(
      [...cardStatus.values()].reduce<Record<string, number>>((a, s) => {
        a[s] = (a[s] ?? 0) + 1;
        return a;
      }, {}),
    ),
    ...cardFigures,
    ...cardEventFigures,
    ledger_verify_exit: verify.code,
    violations: violations.length,
    wall_ms: Date.now() - t0,
  };
  console.log("\nCofre live crash soak (psp-sim)");
  for (const [k, v] of Object.entries(summary)) console.log(`  ${k.padEnd(32)} ${v}`);
  for (const [k, n] of [...rejections].sort((a, b) => b[1] - a[1])) console.log(`  rejected: ${k} x${n}`);
  for (const n of [...new Set(notes)]) console.log(`  note: ${n}`);
  if (orphans.length)
    console.log(
      `  note: ${orphans.length} cob(s) at the PSP belong to no charge (a kill between the PSP call and the commit); a violation unless SOAK_STRICT_ORPHANS=0`,
    );
  for (const v of violations.slice(0, 50)) console.log(`  VIOLATION: ${v}`);
  console.log(JSON.stringify({ soak_live: summary }));
  if (violations.length)
    console.log(`  data dirs kept for inspection: ${server.dataDir} ${sim.dir} ${stripe?.dir ?? ""}`);
  else {
    server.removeData();
    stripe?.remove();
  }
  return violations.length ? 1 : 0;
}

if (import.meta.main) process.exit(await runLiveSoak(Number(process.argv[2] ?? process.env.SOAK_SECONDS ?? 60)));
