/**
 * What one provider callback may cost (issue 30 §1-2; extensions.md "Live Pix over the BCB API
 * Pix (v2)"): at most 100 entries and 64 KiB (413 in the envelope), at most 50 callbacks a second
 * per connection (429 with Retry-After, by the injected clock), unknown txids dismissed by one
 * indexed read without a write unit, confirmations queued as one deduplicated job per charge; and
 * the bare array some PSPs send is accepted as the `pix` list (README "Live Pix").
 */
import { afterAll, beforeAll, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { CALLBACK_BURST, MAX_CALLBACK_ENTRIES } from "../../src/domain/pix-provider/callbacks";
import { HINT_CHECK_INTERVAL_MS } from "../../src/domain/charges/notifications";
import { createLive, startLive, type LiveEnv } from "./live-support";
import { testDb } from "../support/test-db";

let env: LiveEnv;
beforeAll(async () => {
  env = await startLive();
});
afterAll(() => env.stop());
// Every test starts with a full token bucket: a second of the test clock refills it.
beforeEach(() => env.h.clock.advance(2));

const callback = (body: unknown, id = env.connectionId) =>
  env.h.call("POST", `/v1/provider-webhooks/pix/${id}/pix`, { body });
let n = 0;
const e2e = () => `E12345678202611201200${String(n++).padStart(11, "0")}`;
const forged = (count: number) =>
  Array.from({ length: count }, () => ({
    endToEndId: e2e(),
    txid: `forged${String(n++).padStart(26, "0")}`,
    valor: "1.00",
  }));
const checks = () => env.h.deps.jobs.pending("charge.status_check");
/** The queued status checks of charge `chargeId` (`ch_...`): how many, and whether every one is due now. */
async function checksOf(chargeId: string): Promise<{ jobs: number; dueNow: boolean }> {
  const rows = await testDb(env.h.deps).all<{ due_at: number }>(
    "select due_at from jobs where kind = 'charge.status_check' and dedupe_key like ?",
    `charge.status_check:${chargeId.slice(3)}%`,
  );
  return { jobs: rows.length, dueNow: rows.every((r) => Number(r.due_at) <= env.h.clock.nowMs()) };
}

describe("the entry and size caps", () => {
  test("a callback of one entry more than the cap is 413 payload_too_large naming the cap, and queues nothing", async () => {
    const c = await createLive(env, { amount: 1100 });
    const before = await checks();
    const r = await callback({ pix: [...forged(MAX_CALLBACK_ENTRIES), { endToEndId: e2e(), txid: c.pix.txid }] });
    expect([r.status, r.body.error.type, r.body.error.code]).toEqual([
      413,
      "invalid_request_error",
      "payload_too_large",
    ]);
    expect(r.body.error.message).toBe(
      "A callback may carry at most 100 Pix entries; this one has 101. Send them in several callbacks.",
    );
    expect(await checks()).toBe(before);
  });

  test("a bare array over the cap is refused the same way", async () => {
    const r = await callback(forged(1000));
    expect([r.status, r.body.error.code]).toEqual([413, "payload_too_large"]);
  });

  test("a body over 64 KiB is 413 payload_too_large even with few entries", async () => {
    const r = await callback({ pix: [{ endToEndId: e2e(), txid: "forged", padding: "x".repeat(70 * 1024) }] });
    expect([r.status, r.body.error.code, r.body.error.message]).toEqual([
      413,
      "payload_too_large",
      "The request body is too large.",
    ]);
  });

  test("exactly the cap is accepted with 200 and an empty body", async () => {
    const r = await callback({ pix: forged(MAX_CALLBACK_ENTRIES) });
    expect([r.status, r.text]).toEqual([200, ""]);
  });
});

describe("matching a batch", () => {
  test("a batch naming no charge of the connection's account is dismissed by one read, without a write unit", async () => {
    const byTxids = spyOn(env.h.deps.store.read.charges, "byTxids");
    const byTxid = spyOn(env.h.deps.store.read.charges, "byTxid");
    const tx = spyOn(env.h.deps.store, "tx");
    try {
      const before = await checks();
      const r = await callback({ pix: forged(MAX_CALLBACK_ENTRIES) });
      expect(r.status).toBe(200);
      expect([byTxids.mock.calls.length, byTxid.mock.calls.length, tx.mock.calls.length]).toEqual([1, 0, 0]);
      expect(byTxids.mock.calls[0]![2]).toHaveLength(MAX_CALLBACK_ENTRIES);
      expect(await checks()).toBe(before);
    } finally {
      byTxids.mockRestore();
      byTxid.mockRestore();
      tx.mockRestore();
    }
  });

  test("a batch naming two open charges among forged entries queues one status check per charge, however often each is named", async () => {
    const [a, b] = [await createLive(env, { amount: 1200 }), await createLive(env, { amount: 1300 })];
    await env.h.deps.jobs.drain();
    const before = await checks();
    const named = Array.from({ length: 40 }, (_, i) => ({ endToEndId: e2e(), txid: (i % 2 ? a : b).pix.txid }));
    expect([await checksOf(a.id), await checksOf(b.id)]).toEqual([
      { jobs: 1, dueNow: false },
      { jobs: 1, dueNow: false },
    ]); // the first poll
    const r = await callback({ pix: [...forged(60), ...named] });
    expect([r.status, r.text]).toEqual([200, ""]);
    expect([await checksOf(a.id), await checksOf(b.id)]).toEqual([
      { jobs: 1, dueNow: true },
      { jobs: 1, dueNow: true },
    ]);
    expect(await checks()).toBe(before);
  });

  test("a txid of another account's charge counts as unknown and queues nothing", async () => {
    const other = await env.h.seedAccount({ name: "Outra Loja" });
    const c = await env.h.call("POST", "/v1/pix/charges", {
      key: other.testKey,
      body: { amount: 900 },
      headers: { "Idempotency-Key": `other-${n++}-cost` },
    });
    expect(c.status).toBe(201);
    const before = await checks();
    expect((await callback({ pix: [{ endToEndId: e2e(), txid: c.body.pix.txid }] })).status).toBe(200);
    expect(await checks()).toBe(before);
  });
});

describe("callbacks per connection per second", () => {
  test("past the burst a callback is 429 rate_limited with Retry-After, and a second later it passes again", async () => {
    for (let i = 0; i < CALLBACK_BURST; i++) expect((await callback({ pix: [] })).status).toBe(200);
    const r = await callback({ pix: forged(1) });
    expect([r.status, r.body.error.type, r.body.error.code]).toEqual([429, "rate_limit_error", "rate_limited"]);
    expect(r.headers.get("retry-after")).toBe("1");
    env.h.clock.advance(1);
    expect((await callback({ pix: [] })).status).toBe(200);
  });

  test("an unknown connection is 404 however often it is called, and uses no connection's budget", async () => {
    for (let i = 0; i < CALLBACK_BURST + 5; i++)
      expect((await callback({ pix: [] }, "ppc_00000000000000000000000000000000")).status).toBe(404);
    expect((await callback({ pix: [] })).status).toBe(200);
  });
});

describe("refused before the body is read", () => {
  /** A POST whose body starts and never ends: only an answer given before reading it can arrive. */
  const endless = (id: string) =>
    env.h.app.handle(
      new Request(`http://localhost/v1/provider-webhooks/pix/${id}/pix`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"pix": [')) }),
        duplex: "half",
      } as RequestInit),
    );

  test("an unknown connection is answered 404 without waiting for the body", async () => {
    const r = await endless("ppc_00000000000000000000000000000000");
    expect([r.status, ((await r.json()) as { error: { code: string } }).error.code]).toEqual([404, "not_found"]);
  });

  test("a callback past the rate is answered 429 without waiting for the body", async () => {
    for (let i = 0; i < CALLBACK_BURST; i++) expect((await callback({ pix: [] })).status).toBe(200);
    const r = await endless(env.connectionId);
    expect([r.status, r.headers.get("retry-after")]).toEqual([429, "1"]);
  });
});

describe("hints about one charge", () => {
  test("pull its status check to now at most once a second: a second hint within the second asks for the second's end", async () => {
    const c = await createLive(env, { amount: 1500 });
    expect((await callback({ pix: [{ endToEndId: e2e(), txid: c.pix.txid }] })).status).toBe(200);
    expect(await checksOf(c.id)).toEqual({ jobs: 1, dueNow: true });
    await env.h.deps.jobs.drain(); // the check ran: the PSP has no payment, the next poll is queued later
    expect(await checksOf(c.id)).toEqual({ jobs: 1, dueNow: false });
    const now = env.h.clock.nowMs();
    for (let i = 0; i < 5; i++)
      expect((await callback({ pix: [{ endToEndId: e2e(), txid: c.pix.txid }] })).status).toBe(200);
    const due = await testDb(env.h.deps).all<{ due_at: number }>(
      "select due_at from jobs where kind = 'charge.status_check' and dedupe_key = ?",
      `charge.status_check:${c.id.slice(3)}`,
    );
    expect(due.map((r) => Number(r.due_at))).toEqual([now + HINT_CHECK_INTERVAL_MS]);
    env.h.clock.advance(HINT_CHECK_INTERVAL_MS / 1000);
    expect((await callback({ pix: [{ endToEndId: e2e(), txid: c.pix.txid }] })).status).toBe(200);
    expect(await checksOf(c.id)).toEqual({ jobs: 1, dueNow: true });
  });
});

describe("the bare-array form", () => {
  test("a bare array is accepted as the pix list and queues the charge's status check, which pays it", async () => {
    const c = await createLive(env, { amount: 1400 });
    await env.h.deps.jobs.drain();
    const paid = await env.sim.control("POST", "/_sim/callbacks/drop", { count: 1 });
    expect(paid.status).toBe(200);
    const p = await env.sim.control("POST", `/_sim/cob/${c.pix.txid}/pay`, {
      pagador: { nome: "Pagador Teste", cpf: "52998224725" },
      wait_callback: true,
    });
    expect(p.status).toBe(200);
    expect(await checksOf(c.id)).toEqual({ jobs: 1, dueNow: false });
    const r = await callback([{ endToEndId: p.body.pix.endToEndId, txid: c.pix.txid }]);
    expect([r.status, r.text]).toEqual([200, ""]);
    expect(await checksOf(c.id)).toEqual({ jobs: 1, dueNow: true });
    await env.h.deps.jobs.drain();
    expect((await env.h.call("GET", `/v1/charges/${c.id}`, { key: env.a.liveKey })).body.status).toBe("paid");
  });

  test("a bare array with an entry without endToEndId is 400 like the object form", async () => {
    const r = await callback([{ txid: "abc" }]);
    expect([r.status, r.body.error.type, r.body.error.code]).toEqual([400, "invalid_request_error", "invalid_request"]);
  });
});
