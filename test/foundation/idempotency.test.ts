/** Idempotency of money-moving POSTs (issue "Runtime foundation" part 6). */
import { describe, expect, test } from "bun:test";
import { DomainError } from "../../src/domain/errors";
import { expectEnvelope, foundationHarness } from "./fixtures";
import { testDb } from "../support/test-db";

const pay = (h: ReturnType<typeof foundationHarness>, key: string, idem: string | undefined, body: unknown) =>
  h.call("POST", "/t/pay", { key, body, headers: idem === undefined ? {} : { "idempotency-key": idem } });

describe("idempotent replay", () => {
  test("the same key and body replays the original status and body with Idempotent-Replayed", async () => {
    const h = foundationHarness();
    const { testKey } = await h.seedAccount();
    const first = await pay(h, testKey, "order-0001", { amount: 500 });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: "pay_1", amount: 500 });
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await pay(h, testKey, "order-0001", { amount: 500 });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(h.effects()).toBe(1);
  });

  test("key order inside the body does not matter", async () => {
    const h = foundationHarness();
    const { testKey } = await h.seedAccount();
    await h.call("POST", "/t/pay", {
      key: testKey,
      headers: { "idempotency-key": "order-0002" },
      body: '{"amount":7}',
    });
    const r = await h.call("POST", "/t/pay", {
      key: testKey,
      headers: { "idempotency-key": "order-0002" },
      body: '{ "amount" : 7 }',
    });
    expect(r.headers.get("idempotent-replayed")).toBe("true");
    expect(h.effects()).toBe(1);
  });

  test("keys are scoped by account and by mode", async () => {
    const h = foundationHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const r1 = await pay(h, a.testKey, "shared-key-1", { amount: 1 });
    const r2 = await pay(h, a.liveKey, "shared-key-1", { amount: 2 });
    const r3 = await pay(h, b.testKey, "shared-key-1", { amount: 3 });
    for (const r of [r1, r2, r3]) {
      expect(r.status).toBe(201);
      expect(r.headers.get("idempotent-replayed")).toBeNull();
    }
    expect(h.effects()).toBe(3);
  });

  test("keys are scoped by route", async () => {
    const h = foundationHarness();
    const base = { accountId: "acct_x", livemode: false, key: "scoped-key", body: { a: 1 } };
    const a = await h.deps.idempotency.begin({ ...base, scope: "POST /v1/charges" });
    const b = await h.deps.idempotency.begin({ ...base, scope: "POST /v1/payments" });
    expect(a.kind).toBe("claimed");
    expect(b.kind).toBe("claimed");
  });
});

describe("idempotency errors", () => {
  test("the same key with a different body is 409 idempotency_key_reused and runs nothing", async () => {
    const h = foundationHarness();
    const { testKey } = await h.seedAccount();
    await pay(h, testKey, "order-0003", { amount: 500 });
    const r = await pay(h, testKey, "order-0003", { amount: 501 });
    expectEnvelope(r, 409, "conflict_error", "idempotency_key_reused");
    expect(h.effects()).toBe(1);
  });

  test("a second request while the first runs is 409 idempotency_key_in_use with Retry-After", async () => {
    const h = foundationHarness();
    const { testKey } = await h.seedAccount();
    const { entered, release } = h.holdNextWrite();
    const first = pay(h, testKey, "order-0004", { amount: 900 });
    await entered;
    const second = await pay(h, testKey, "order-0004", { amount: 900 });
    expectEnvelope(second, 409, "conflict_error", "idempotency_key_in_use");
    expect(Number(second.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(second.headers.get("x-ratelimit-limit-minute")).toBe("6000");
    release();
    expect((await first).status).toBe(201);
    const third = await pay(h, testKey, "order-0004", { amount: 900 });
    expect(third.headers.get("idempotent-replayed")).toBe("true");
    expect(h.effects()).toBe(1);
  });

  test("a request whose record lookup overlaps the first request's completion is told to retry and never runs twice", async () => {
    const h = foundationHarness();
    const { testKey } = await h.seedAccount();
    const { entered, release } = h.holdNextWrite();
    const first = pay(h, testKey, "order-race", { amount: 5 });
    await entered;
    // The second request reads "no record" while the first still runs, then stalls until the
    // first has stored its record and let go of the key.
    const read = h.deps.store.read.idempotency;
    const find = read.find;
    let lookedUp!: () => void;
    const looked = new Promise<void>((r) => (lookedUp = r));
    let resume!: () => void;
    const gate = new Promise<void>((r) => (resume = r));
    read.find = async (...args) => {
      const row = await find(...args);
      lookedUp();
      await gate;
      return row;
    };
    const second = pay(h, testKey, "order-race", { amount: 5 });
    await looked;
    read.find = find;
    release();
    expect((await first).status).toBe(201);
    resume();
    expectEnvelope(await second, 409, "conflict_error", "idempotency_key_in_use");
    expect(h.effects()).toBe(1);
    const third = await pay(h, testKey, "order-race", { amount: 5 });
    expect(third.headers.get("idempotent-replayed")).toBe("true");
    expect(h.effects()).toBe(1);
  });

  test("a claim abandoned by a crashed request is taken over once its lock expires", async () => {
    const h = foundationHarness();
    const req = { accountId: "acct_x", livemode: false, scope: "POST /x", key: "crashed-key", body: {} };
    expect((await h.deps.idempotency.begin(req)).kind).toBe("claimed");
    await expect(h.deps.idempotency.begin(req)).rejects.toThrow(DomainError);
    h.clock.advance(61);
    expect((await h.deps.idempotency.begin(req)).kind).toBe("claimed");
  });

  test("a missing key is 400 idempotency_key_missing", async () => {
    const h = foundationHarness();
    const { testKey } = await h.seedAccount();
    const r = await pay(h, testKey, undefined, { amount: 1 });
    const e = expectEnvelope(r, 400, "invalid_request_error", "idempotency_key_missing");
    expect(e.param).toBe("Idempotency-Key");
    expect(h.effects()).toBe(0);
  });

  test("keys of 8 and 128 characters are accepted, 7 and 129 are not", async () => {
    const h = foundationHarness();
    const { testKey } = await h.seedAccount();
    expect((await pay(h, testKey, "k".repeat(8), { amount: 1 })).status).toBe(201);
    expect((await pay(h, testKey, "k".repeat(128), { amount: 1 })).status).toBe(201);
    for (const bad of ["k".repeat(7), "k".repeat(129)]) {
      const r = await pay(h, testKey, bad, { amount: 1 });
      const e = expectEnvelope(r, 400, "invalid_request_error", "invalid_idempotency_key");
      expect(e.param).toBe("Idempotency-Key");
    }
    expect(h.effects()).toBe(2);
  });
});

describe("what is stored", () => {
  test("a validation failure is not stored: the key stays free for a corrected body", async () => {
    const h = foundationHarness();
    const { testKey } = await h.seedAccount();
    const bad = await pay(h, testKey, "order-0005", { amount: "100" });
    expectEnvelope(bad, 400, "invalid_request_error", "invalid_amount");
    const good = await pay(h, testKey, "order-0005", { amount: 100 });
    expect(good.status).toBe(201);
    expect(good.headers.get("idempotent-replayed")).toBeNull();
  });

  test("a failed request is not stored: a retry runs again", async () => {
    const h = foundationHarness();
    const { testKey } = await h.seedAccount();
    expect((await pay(h, testKey, "order-0006", { amount: 13 })).status).toBe(500);
    expect((await pay(h, testKey, "order-0006", { amount: 13 })).status).toBe(500);
    const ok = await pay(h, testKey, "order-0006", { amount: 14 });
    expect(ok.status).toBe(201);
    expect(await testDb(h.deps).all("select * from idempotency_keys")).toHaveLength(1);
  });

  test("the record commits with the side effect: a rolled-back transaction leaves no record", async () => {
    const h = foundationHarness();
    const req = { accountId: "acct_x", livemode: false, scope: "POST /x", key: "rollback-key", body: {} };
    const begun = await h.deps.idempotency.begin(req);
    if (begun.kind !== "claimed") throw new Error("expected a claim");
    await expect(
      h.deps.store.tx(async (uow) => {
        await h.deps.idempotency.complete(uow, begun.claim, 201, { ok: true });
        throw new Error("side effect failed");
      }),
    ).rejects.toThrow("side effect failed");
    // No completed record. PostgreSQL keeps the claim itself as a durable in-progress row (src/store/pg/claims.ts),
    // which its owner releases (here nobody: the test called begin directly) or a retry takes over once locked_until
    // passed.
    const rows = await testDb(h.deps).all<{ state: string }>(
      "select state from idempotency_keys where id = ?",
      begun.claim.id,
    );
    expect(rows.map((r) => r.state)).toEqual(h.deps.store.kind === "sqlite" ? [] : ["in_progress"]);
  });

  test("records are kept for 24 h and then pruned by the job", async () => {
    const h = foundationHarness();
    const { testKey } = await h.seedAccount();
    await pay(h, testKey, "order-0007", { amount: 10 });
    h.clock.advance(23 * 3600);
    await h.deps.jobs.drain();
    const kept = await pay(h, testKey, "order-0007", { amount: 10 });
    expect(kept.headers.get("idempotent-replayed")).toBe("true");
    h.clock.advance(2 * 3600);
    await h.deps.jobs.drain();
    expect(await testDb(h.deps).all("select * from idempotency_keys where key = ?", "order-0007")).toHaveLength(0);
    const fresh = await pay(h, testKey, "order-0007", { amount: 11 });
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
    expect(h.effects()).toBe(2);
  });
});

describe("the idempotent() route helper", () => {
  test("takes the key from the body when told to, and names that field in errors", async () => {
    const { idempotent } = await import("../../src/http/idempotent");
    const h = foundationHarness();
    const ctx = () => ({
      request: new Request("http://localhost/x", { method: "POST" }),
      set: { headers: {} as Record<string, string | number>, status: undefined as number | string | undefined },
      auth: { accountId: "acct_helper", livemode: false },
      body: { amount: 10, idempotencyKey: "refund-key-0001" },
    });
    let runs = 0;
    const work = () => ({ status: 201, body: { n: ++runs } });
    const c1 = ctx();
    expect(
      await idempotent(h.deps, c1, "POST /refund", work, { key: c1.body.idempotencyKey, param: "idempotencyKey" }),
    ).toEqual({ n: 1 });
    expect(c1.set.status).toBe(201);
    expect(c1.set.headers["Idempotent-Replayed"]).toBeUndefined();
    const c2 = ctx();
    expect(
      await idempotent(h.deps, c2, "POST /refund", work, { key: c2.body.idempotencyKey, param: "idempotencyKey" }),
    ).toEqual({ n: 1 });
    expect(c2.set.status).toBe(201);
    expect(c2.set.headers["Idempotent-Replayed"]).toBe("true");
    const c3 = ctx();
    let err: any;
    await idempotent(h.deps, c3, "POST /refund", work, { key: "short", param: "idempotencyKey" }).catch(
      (e) => (err = e),
    );
    expect([err.code, err.extra.param]).toEqual(["invalid_idempotency_key", "idempotencyKey"]);
    expect(runs).toBe(1);
  });
});
