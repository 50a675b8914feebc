/**
 * Confirming live Pix payments end to end against psp-sim over real mTLS (extensions.md "Live Pix
 * over the BCB API Pix (v2)": Payment, Expiry; issue 14 §3 and §5): the simulator calls back a
 * Cofre served on 127.0.0.1 (the connection's webhook URL is that instance's COFRE_PUBLIC_URL);
 * a callback only queues a confirmation; dropped callbacks are caught by the poll and by the
 * sweep of GET /pix; forged and repeated callbacks change nothing more; expiry waits for the PSP;
 * a payment after expiry is late, one made before it but seen after it is not; a deleted
 * connection's charges keep settling. Due jobs run through the injected clocks (no sleeping).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getBalance } from "../../src/domain/ledger";
import { PIX_SWEEP_JOB, sweepReceivedPix } from "../../src/domain/pix-provider/sweep";
import { advanceClock } from "../../src/jobs/advance";
import { createLogger } from "../../src/lib/logger";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { SimClient, startFixture, validCpf, type SimFixture } from "../psp-sim/support";
import { key } from "../payments/support";
import { connectionPath, OPERATOR_TOKEN } from "./support";
import { testDb } from "../support/test-db";

let fx: SimFixture;
let sim: SimClient;
let h: Harness;
let a: SeededAccount;
let connectionId: string;
let server: { stop(force?: boolean): unknown } | undefined;
/** Cofre's log lines at warn and above (parsed). */
const warnings: { msg: string; [k: string]: unknown }[] = [];

beforeAll(async () => {
  fx = await startFixture();
  sim = new SimClient(fx);
  expect((await sim.login()).status).toBe(200);
  const logger = createLogger("warn", { write: (line: string) => void warnings.push(JSON.parse(line)) });
  h = createHarness({ operatorToken: OPERATOR_TOKEN }, undefined, logger);
  h.subscribeAllEvents = true;
  const srv = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => h.app.handle(req) });
  server = srv;
  h.deps.config.publicUrl = `http://127.0.0.1:${srv.port}`;
  a = await h.seedAccount({ name: "Loja Viva" });
  const body = { ...fx.init.body, api_url: fx.sim.apiUrl, token_url: fx.sim.tokenUrl };
  const r = await h.call("PUT", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN, body });
  expect(r.status).toBe(200);
  expect(r.body.webhook_url).toBe(`http://127.0.0.1:${srv.port}/v1/provider-webhooks/pix/${r.body.id}`);
  expect(r.body.webhook_registered).toBe(true);
  connectionId = r.body.id;
});
afterAll(async () => {
  server?.stop(true);
  await fx.cleanup();
});

const create = (body: Record<string, unknown>, acct = a) =>
  h.call("POST", "/v1/pix/charges", { key: acct.liveKey, body, headers: { "Idempotency-Key": key("confirm") } });
const charge = async (id: string) => (await h.call("GET", `/v1/charges/${id}`, { key: a.liveKey })).body;
/** Live balance (pending + available), centavos. */
const balance = async () => {
  const b = await getBalance(h.deps.store.read, a.accountId, true, "BRL");
  return b.pending + b.available;
};
const paidEvents = async (chargeId: string) =>
  (await testDb(h.deps).get<{ n: number }>(
    "select count(*) as n from events where type = 'charge.paid' and transaction_id = ?",
    chargeId.slice(3),
  ))!.n;
/** Moves the simulator's clock and Cofre's by `seconds`, running Cofre's jobs due on the way. */
const advance = async (seconds: number) => {
  fx.clock.advance(seconds);
  await advanceClock(h.clock, h.deps.jobs, seconds);
};
const pay = (txid: string, extra: Record<string, unknown> = {}) =>
  sim.control("POST", `/_sim/cob/${txid}/pay`, {
    pagador: { nome: "Pagador Teste", cpf: validCpf() },
    wait_callback: true,
    ...extra,
  });
const callback = (body: unknown, id = connectionId) => h.call("POST", `/v1/provider-webhooks/pix/${id}/pix`, { body });

describe("the callback route", () => {
  test("answers 200 with an empty body and changes nothing until Cofre's own query confirms", async () => {
    const c = await create({ amount: 1500 });
    const before = await balance();
    const paid = await sim.control("POST", "/_sim/callbacks/drop", { count: 1 });
    expect(paid.status).toBe(200);
    const p = await pay(c.body.pix.txid);
    expect(p.status).toBe(200);
    const r = await callback({ pix: [p.body.pix] });
    expect([r.status, r.text]).toEqual([200, ""]);
    expect((await charge(c.body.id)).status).toBe("pending");
    expect(await balance()).toBe(before);
    await h.deps.jobs.drain();
    expect((await charge(c.body.id)).status).toBe("paid");
    expect((await balance()) - before).toBe(1500);
  });

  test("an unknown connection is 404 not_found", async () => {
    const r = await callback({ pix: [] }, "ppc_00000000000000000000000000000000");
    expect([r.status, r.body.error.code]).toEqual([404, "not_found"]);
  });

  test("a body without a pix list is 400 and queues nothing", async () => {
    const queued = await h.deps.jobs.pending("charge.status_check");
    for (const body of [{}, { pix: "x" }, { pix: [{ txid: "abc" }] }, "not json"]) {
      const r = await callback(body);
      expect(r.status).toBe(400);
      expect(r.body.error.type).toBe("invalid_request_error");
    }
    expect(await h.deps.jobs.pending("charge.status_check")).toBe(queued);
  });
});

describe("paying by callback", () => {
  test("the simulator's callback reaches the served Cofre and the charge is paid once confirmed, crediting the live balance once", async () => {
    const c = await create({ amount: 2500 });
    const before = await balance();
    const p = await pay(c.body.pix.txid);
    expect(p.body.callback.status).toBe("sent");
    expect((await charge(c.body.id)).status).toBe("pending"); // the callback only queued a check
    await h.deps.jobs.drain();
    const after = await charge(c.body.id);
    expect(after.status).toBe("paid");
    expect((await balance()) - before).toBe(2500);
    expect(await paidEvents(c.body.id)).toBe(1);
  });

  test("a repeated callback and a poll after it pay once: one charge.paid, the balance credited once", async () => {
    const c = await create({ amount: 3300 });
    const before = await balance();
    const p = await pay(c.body.pix.txid);
    await h.deps.jobs.drain();
    for (let i = 0; i < 3; i++) expect((await callback({ pix: [p.body.pix] })).status).toBe(200);
    await h.deps.jobs.drain();
    await advance(20); // the 15 s poll, had it still been queued
    expect((await charge(c.body.id)).status).toBe("paid");
    expect((await balance()) - before).toBe(3300);
    expect(await paidEvents(c.body.id)).toBe(1);
  });
});

describe("forged callbacks", () => {
  test("an end-to-end id the PSP does not know changes nothing", async () => {
    const c = await create({ amount: 4100 });
    const before = await balance();
    const forged = {
      endToEndId: "E99999999202611201200forgedforged1",
      txid: c.body.pix.txid,
      valor: "41.00",
      horario: new Date(h.clock.nowMs()).toISOString(),
    };
    expect((await callback({ pix: [forged] })).status).toBe(200);
    await h.deps.jobs.drain();
    expect((await charge(c.body.id)).status).toBe("pending");
    expect(await balance()).toBe(before);
    expect(await paidEvents(c.body.id)).toBe(0);
  });

  test("the txid of another account's charge changes nothing", async () => {
    const other = await h.seedAccount();
    const theirs = await h.call("POST", "/v1/pix/charges", {
      key: other.testKey,
      body: { amount: 900 },
      headers: { "Idempotency-Key": key("other") },
    });
    expect(theirs.status).toBe(201);
    const forged = {
      endToEndId: "E99999999202611201200forgedforged2",
      txid: theirs.body.pix.txid,
      valor: "9.00",
      horario: new Date(h.clock.nowMs()).toISOString(),
    };
    const queued = await h.deps.jobs.pending("charge.status_check");
    expect((await callback({ pix: [forged] })).status).toBe(200);
    expect(await h.deps.jobs.pending("charge.status_check")).toBe(queued); // ignored: not a charge of the connection's account
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/charges/${theirs.body.id}`, { key: other.testKey })).body.status).toBe("pending");
  });
});

describe("callbacks dropped", () => {
  test("the poll 15 s after creation catches the payment", async () => {
    const c = await create({ amount: 5200 });
    const before = await balance();
    await sim.control("POST", "/_sim/callbacks/drop", { count: 1 });
    const p = await pay(c.body.pix.txid);
    expect(p.body.callback.status).toBe("dropped");
    await h.deps.jobs.drain();
    expect((await charge(c.body.id)).status).toBe("pending");
    await advance(15);
    expect((await charge(c.body.id)).status).toBe("paid");
    expect((await balance()) - before).toBe(5200);
  });

  test("later polls follow the backoff while the cob is open (1 min, then 5 min after)", async () => {
    const c = await create({ amount: 5300, expires_in: 3600 });
    await advance(15); // the first poll: ATIVA
    await advance(59); // 74 s: the second poll is due at 75 s
    await sim.control("POST", "/_sim/callbacks/drop", { count: 1 });
    await pay(c.body.pix.txid);
    expect((await charge(c.body.id)).status).toBe("pending");
    await advance(1);
    expect((await charge(c.body.id)).status).toBe("paid");
  });

  test("the sweep of GET /pix catches the payment before any poll", async () => {
    expect(await h.deps.jobs.pending(PIX_SWEEP_JOB)).toBe(1); // the recurring sweep is queued
    const c = await create({ amount: 6100 });
    const before = await balance();
    await sim.control("POST", "/_sim/callbacks/drop", { count: 1 });
    await pay(c.body.pix.txid);
    await h.deps.jobs.drain();
    expect((await charge(c.body.id)).status).toBe("pending"); // no poll is due yet
    const r = await sweepReceivedPix(h.deps);
    expect(r.connections).toBe(1);
    expect(r.accepted).toBeGreaterThanOrEqual(1);
    await h.deps.jobs.drain();
    expect((await charge(c.body.id)).status).toBe("paid");
    expect((await balance()) - before).toBe(6100);
    expect(await paidEvents(c.body.id)).toBe(1);
  });

  test("the recurring sweep runs every 10 minutes by itself", async () => {
    const c = await create({ amount: 6200, expires_in: 7200 });
    await advance(400); // past the 15 s, 75 s and 375 s polls; the next poll is at 1275 s
    await sim.control("POST", "/_sim/callbacks/drop", { count: 1 });
    await pay(c.body.pix.txid);
    await advance(600); // the sweep ran at least once in these 10 minutes, before the 1275 s poll
    expect((await charge(c.body.id)).status).toBe("paid");
  });
});

describe("expiry", () => {
  test("a live charge expires only when GET /cob/{txid} confirms nobody paid, not by the local sweep", async () => {
    const c = await create({ amount: 7100, expires_in: 60 });
    const before = await balance();
    await advance(20); // the 15 s poll: ATIVA; the next check is at expires_at
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: `GET /cob/${c.body.pix.txid}` });
    await advance(45); // 65 s: the check at expires_at met a 503
    expect((await charge(c.body.id)).status).toBe("pending");
    await advance(30); // the retry 30 s later confirms
    const after = await charge(c.body.id);
    expect(after.status).toBe("expired");
    expect(await balance()).toBe(before);
  });

  test("a payment after expiry is late: the charge expires and nothing is credited", async () => {
    const c = await create({ amount: 7200, expires_in: 60 });
    const before = await balance();
    await advance(20);
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: `GET /cob/${c.body.pix.txid}` });
    await advance(42); // 62 s: the expiry check failed
    const p = await pay(c.body.pix.txid); // paid at 62 s, after expires_at; its callback is confirmed now
    await h.deps.jobs.drain();
    expect((await charge(c.body.id)).status).toBe("expired");
    expect(await balance()).toBe(before);
    expect(await paidEvents(c.body.id)).toBe(0);
    // The operator is told, and the Pix goes back to its payer (late-payment.test.ts).
    const late = warnings.filter((w) => w.msg === "payment arrived after the charge expired: not credited");
    expect(late.map((w) => [w.transactionId, w.endToEndId, w.amount])).toEqual([
      [c.body.id.slice(3), p.body.pix.endToEndId, 7200],
    ]);
  });

  test("a Pix paid before expiry but confirmed after it pays the charge (the PSP's horario decides)", async () => {
    const c = await create({ amount: 7300, expires_in: 60 });
    const created = h.clock.nowMs();
    const before = await balance();
    await advance(20);
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: `GET /cob/${c.body.pix.txid}` });
    await advance(45); // 65 s: the expiry check failed
    await sim.control("POST", "/_sim/callbacks/drop", { count: 1 });
    await pay(c.body.pix.txid, { horario: new Date(created + 50_000).toISOString() });
    await advance(30); // the retried check finds the cob CONCLUIDA, paid at 50 s
    expect((await charge(c.body.id)).status).toBe("paid");
    expect((await balance()) - before).toBe(7300);
  });

  test("a Pix paid on a charge already expired credits nothing and goes back to its payer (late-payment.test.ts follows the return)", async () => {
    const c = await create({ amount: 7400, expires_in: 60 });
    await advance(61);
    expect((await charge(c.body.id)).status).toBe("expired");
    const before = await balance();
    const p = await pay(c.body.pix.txid);
    await h.deps.jobs.drain();
    expect((await charge(c.body.id)).status).toBe("expired");
    expect(await balance()).toBe(before);
    expect(await paidEvents(c.body.id)).toBe(0);
    const devs = (await sim.api("GET", `/pix/${p.body.pix.endToEndId}`)).body.devolucoes;
    expect(devs.map((d: { valor: string; natureza: string }) => [d.valor, d.natureza])).toEqual([
      ["74.00", "ORIGINAL"],
    ]);
  });
});

describe("a deleted connection", () => {
  test("its charges keep settling through polls, and its callbacks are still confirmed", async () => {
    const c = await create({ amount: 8100 });
    const before = await balance();
    expect((await h.call("DELETE", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN })).status).toBe(204);
    const p = await pay(c.body.pix.txid, { wait_callback: false }); // the webhook is gone at the PSP
    expect(p.status).toBe(200);
    await advance(15);
    expect((await charge(c.body.id)).status).toBe("paid");
    expect((await balance()) - before).toBe(8100);
    expect((await callback({ pix: [p.body.pix] })).status).toBe(200); // known, deleted connection
  });
});
