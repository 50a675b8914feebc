/**
 * Exactly one cob per live charge under retries (issue 14 §3 and §5; extensions.md "Live Pix"
 * Create: "a retry with the same Idempotency-Key reuses the same txid, so no second cob is ever
 * created"), against psp-sim over real mTLS: the durable create intent (src/domain/charges/
 * intents.ts) keeps the txid and the charge across a PSP 503, a lost answer and a timeout; the
 * recovery job (intent-recovery.ts) finalises or drops what nobody retried; a token expired at
 * the PSP mid-run is refreshed once; sandbox creates write no intent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { BcbConnectionGateway } from "../../src/providers/bcb-pix-v2/gateway";
import { runStatusCheck } from "../../src/domain/charges/outcomes";
import { RECOVERY_GRACE_MS, recoverIntents } from "../../src/domain/charges/intent-recovery";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { SimClient, startFixture, validCpf, type SimFixture } from "../psp-sim/support";
import { key } from "../payments/support";
import { connectionPath, OPERATOR_TOKEN, recordingFetch, type Recorded } from "./support";
import { testDb } from "../support/test-db";

let fx: SimFixture;
let sim: SimClient;
let h: Harness;
let a: SeededAccount;
let log: Recorded[];
let connectionId: string;
beforeAll(async () => {
  fx = await startFixture();
  sim = new SimClient(fx);
  expect((await sim.login()).status).toBe(200);
  h = createHarness({ operatorToken: OPERATOR_TOKEN });
  a = await h.seedAccount({ name: "Loja Intenta" });
  const rec = recordingFetch();
  h.deps.providers.ctx.fetch = rec.fetch;
  log = rec.log;
  const body = { ...fx.init.body, api_url: fx.sim.apiUrl, token_url: fx.sim.tokenUrl };
  const put = await h.call("PUT", connectionPath(a.accountId), { bearer: OPERATOR_TOKEN, body });
  expect(put.status).toBe(200);
  connectionId = put.body.id;
});
afterAll(() => fx.cleanup());
beforeEach(async () => {
  expect((await sim.control("DELETE", "/_sim/faults")).status).toBe(200);
  setTimeouts({});
});
/** New client timeouts for the connection (the pooled client is rebuilt with them). */
function setTimeouts(options: BcbConnectionGateway["options"]): void {
  const gateway = h.deps.pixConnections as BcbConnectionGateway;
  gateway.options = options;
  gateway.forget(connectionId);
}

const create = (idemKey: string, body: Record<string, unknown>) =>
  h.call("POST", "/v1/pix/charges", { key: a.liveKey, body, headers: { "Idempotency-Key": idemKey } });
/** The cobs the simulator holds, by txid. */
const cobs = async (): Promise<{ txid: string; status: string }[]> =>
  (await sim.control("GET", "/_sim/cobs")).body.cobs;
/** Every create intent, as stored (snake_case columns), by id. */
const intents = () =>
  testDb(h.deps).all<{ id: string; txid: string; transaction_id: string }>("select * from create_intents order by id");
/** `METHOD /cob/...` of every call Cofre sent to the PSP's cob routes since `from`. */
const cobCalls = (from: number) =>
  log
    .slice(from)
    .filter((e) => e.url.includes("/cob/"))
    .map((e) => `${e.method} ${new URL(e.url).pathname.split("/").slice(-2, -1)[0]}`);
const liveCharges = async () =>
  (await h.call("GET", "/v1/charges?limit=100", { key: a.liveKey })).body.data as { id: string }[];

describe("a retry with the same Idempotency-Key", () => {
  test("after a PSP 503 on PUT /cob reuses the same txid and charge id, and the PSP holds exactly one cob", async () => {
    const k = key("503");
    const body = { amount: 4321, description: "retry after 503" };
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "PUT /cob" });
    const chargesBefore = (await liveCharges()).length;
    const first = await create(k, body);
    expect([first.status, first.body.error.code]).toEqual([503, "service_unavailable"]);
    // The intent is durable and names the txid the PUT used; no charge yet.
    const [intent] = await intents();
    expect(intent).toBeDefined();
    const putTxid = log
      .filter((e) => e.method === "PUT" && e.url.includes("/cob/"))
      .at(-1)!
      .url.split("/")
      .pop();
    expect(intent!.txid).toBe(putTxid!);
    expect((await liveCharges()).length).toBe(chargesBefore);

    const second = await create(k, body);
    expect(second.status).toBe(201);
    expect(second.body.pix.txid).toBe(intent!.txid);
    expect(second.body.id).toBe(`ch_${intent!.transaction_id}`);
    expect((await cobs()).filter((c) => c.txid === intent!.txid)).toHaveLength(1);
    expect(await intents()).toEqual([]);
    expect((await liveCharges()).length).toBe(chargesBefore + 1);
    // A third call replays the stored 201.
    const third = await create(k, body);
    expect([third.status, third.headers.get("idempotent-replayed"), third.body]).toEqual([201, "true", second.body]);
  });

  test("after an answer lost once the PSP created the cob asks GET /cob first and sends no second PUT", async () => {
    const k = key("lost");
    const body = { amount: 1500 };
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "PUT /cob", after: true });
    const mark = log.length;
    expect((await create(k, body)).status).toBe(503);
    const txid = (await intents())[0]!.txid;
    expect((await cobs()).filter((c) => c.txid === txid)).toHaveLength(1);
    const retryMark = log.length;
    const r = await create(k, body);
    expect(r.status).toBe(201);
    expect(r.body.pix.txid).toBe(txid);
    expect(r.body.status).toBe("pending");
    expect(r.body.pix.br_code).toBe((await sim.api("GET", `/cob/${txid}`)).body.pixCopiaECola);
    expect(cobCalls(mark)).toEqual(["PUT cob", "GET cob"]);
    expect(log.slice(retryMark).filter((e) => e.method === "PUT")).toEqual([]);
    expect((await cobs()).filter((c) => c.txid === txid)).toHaveLength(1);
  });

  test("after a PSP slower than our total timeout (the cob created late) gives 201 with one cob and the same txid", async () => {
    const k = key("slow");
    const body = { amount: 990 };
    setTimeouts({ totalTimeoutMs: 300 });
    await sim.control("POST", "/_sim/faults/latency", { ms: 900, count: 1, match: "PUT /cob" });
    const first = await create(k, body);
    expect([first.status, first.body.error.code]).toEqual([503, "service_unavailable"]);
    const txid = (await intents())[0]!.txid;
    // The simulator finishes the PUT after its delay: wait for the cob to exist (bounded).
    for (let i = 0; i < 250 && !(await cobs()).some((c) => c.txid === txid); i++) await Bun.sleep(20);
    expect((await cobs()).filter((c) => c.txid === txid)).toHaveLength(1);
    const second = await create(k, body);
    expect(second.status).toBe(201);
    expect(second.body.pix.txid).toBe(txid);
    expect((await cobs()).filter((c) => c.txid === txid)).toHaveLength(1);
    expect(await intents()).toEqual([]);
  });

  test("whose cob the PSP removed meanwhile gets the charge created failed with the PSP's reason, and the intent is gone", async () => {
    const k = key("removed");
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "PUT /cob", after: true });
    expect((await create(k, { amount: 410 })).status).toBe(503);
    const [intent] = await intents();
    expect((await sim.control("POST", `/_sim/cob/${intent!.txid}/remove`)).status).toBe(200);
    const r = await create(k, { amount: 410 });
    expect([r.status, r.body.id, r.body.status, r.body.pix]).toEqual([
      201,
      `ch_${intent!.transaction_id}`,
      "failed",
      null,
    ]);
    expect(r.body.metadata.failure).toMatchObject({
      reason: "provider_rejected",
      providerErrorCode: "REMOVIDA_PELO_PSP",
    });
    expect(await intents()).toEqual([]);
    expect((await cobs()).filter((c) => c.txid === intent!.txid)).toHaveLength(1);
  });

  test("with another body while the intent is open answers 409 idempotency_key_reused and keeps the intent", async () => {
    const k = key("reuse");
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "PUT /cob" });
    expect((await create(k, { amount: 100 })).status).toBe(503);
    const before = await intents();
    const r = await create(k, { amount: 200 });
    expect([r.status, r.body.error.code]).toEqual([409, "idempotency_key_reused"]);
    expect(await intents()).toEqual(before);
    expect((await create(k, { amount: 100 })).status).toBe(201);
  });
});

describe("the recovery job", () => {
  const age = async () => h.clock.advance(RECOVERY_GRACE_MS / 1000 + 1);

  test("drops an intent whose cob the PSP never created; the key then creates afresh", async () => {
    const k = key("drop");
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "PUT /cob" });
    expect((await create(k, { amount: 300 })).status).toBe(503);
    const [intent] = await intents();
    expect(await recoverIntents(h.deps)).toEqual({ finalised: 0, dropped: 0, kept: 0 }); // still within the grace period
    await age();
    const mark = log.length;
    expect(await recoverIntents(h.deps)).toEqual({ finalised: 0, dropped: 1, kept: 0 });
    expect(cobCalls(mark)).toEqual(["GET cob"]); // asked, never created
    expect(await intents()).toEqual([]);
    expect((await cobs()).some((c) => c.txid === intent!.txid)).toBe(false);
    const r = await create(k, { amount: 300 });
    expect(r.status).toBe(201);
    expect(r.body.pix.txid).not.toBe(intent!.txid);
  });

  test("finalises an intent whose cob exists: a later retry replays 201 with that charge", async () => {
    const k = key("recover");
    const body = { amount: 2750, customer: { name: "Fulano", document: validCpf() } };
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "PUT /cob", after: true });
    expect((await create(k, body)).status).toBe(503);
    const [intent] = await intents();
    await age();
    expect(await recoverIntents(h.deps)).toEqual({ finalised: 1, dropped: 0, kept: 0 });
    expect(await intents()).toEqual([]);
    const got = await h.call("GET", `/v1/charges/ch_${intent!.transaction_id}`, { key: a.liveKey });
    expect(got.status).toBe(200);
    expect([got.body.status, got.body.amount, got.body.pix.txid]).toEqual(["pending", 2750, intent!.txid]);
    const replay = await create(k, body);
    expect([replay.status, replay.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(replay.body.id).toBe(got.body.id);
    expect(replay.body.pix).toEqual(got.body.pix);
    expect((await cobs()).filter((c) => c.txid === intent!.txid)).toHaveLength(1);
  });

  test("finalises an intent whose cob was paid meanwhile, and the status check then pays the charge", async () => {
    const k = key("paid");
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "PUT /cob", after: true });
    expect((await create(k, { amount: 640 })).status).toBe(503);
    const [intent] = await intents();
    expect(
      (await sim.control("POST", `/_sim/cob/${intent!.txid}/pay`, { pagador: { nome: "Pagadora", cpf: validCpf() } }))
        .status,
    ).toBe(200);
    await age();
    expect(await recoverIntents(h.deps)).toEqual({ finalised: 1, dropped: 0, kept: 0 });
    await runStatusCheck(h.deps, intent!.transaction_id, "PIX");
    const got = await h.call("GET", `/v1/charges/ch_${intent!.transaction_id}`, { key: a.liveKey });
    expect([got.body.status, got.body.amount]).toEqual(["paid", 640]);
  });

  test("keeps an intent while the PSP is unreachable and resolves it on a later run", async () => {
    const k = key("unreach");
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "PUT /cob", after: true });
    expect((await create(k, { amount: 820 })).status).toBe(503);
    await age();
    await sim.control("POST", "/_sim/faults/errors", { status: 503, count: 1, match: "GET /cob" });
    expect(await recoverIntents(h.deps)).toEqual({ finalised: 0, dropped: 0, kept: 1 });
    expect(await intents()).toHaveLength(1);
    expect(await recoverIntents(h.deps)).toEqual({ finalised: 1, dropped: 0, kept: 0 });
    expect(await intents()).toEqual([]);
  });
});

describe("a token that expires mid-run", () => {
  test("is refreshed once after the PSP's 401 and the create succeeds with one cob", async () => {
    expect((await create(key("warm"), { amount: 100 })).status).toBe(201); // a cached token
    expect((await sim.control("POST", "/_sim/tokens/expire", {})).status).toBe(200);
    const mark = log.length;
    const r = await create(key("expired"), { amount: 101 });
    expect(r.status).toBe(201);
    const calls = log
      .slice(mark)
      .map(
        (e) =>
          `${e.method} ${e.url.includes("/oauth/token") ? "token" : new URL(e.url).pathname.split("/").slice(-2, -1)[0]} ${e.status}`,
      );
    expect(calls).toEqual(["PUT cob 401", "POST token 200", "PUT cob 201"]);
    expect((await cobs()).filter((c) => c.txid === r.body.pix.txid)).toHaveLength(1);
  });
});

describe("sandbox creates", () => {
  test("write no intent, whatever the outcome", async () => {
    const ok = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      body: { amount: 100 },
      headers: { "Idempotency-Key": key("sbx") },
    });
    expect(ok.status).toBe(201);
    await h.call("POST", "/v1/test_helpers/provider_faults", {
      key: a.testKey,
      body: { mode: "unavailable", count: 1 },
    });
    const down = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      body: { amount: 100 },
      headers: { "Idempotency-Key": key("sbx") },
    });
    expect(down.status).toBe(503);
    expect(await intents()).toEqual([]);
  });
});
