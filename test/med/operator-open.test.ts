/**
 * Operator MED opening `POST /v1/operator/charges/{id}/med` (extensions.md "Live Pix": body as the
 * sandbox MED helper; opens a MED case on a live paid charge): the same case, hold, charge status
 * and events as the helper; errors that change nothing; operator bearer authentication only.
 */
import { describe, expect, test } from "bun:test";
import { rawId } from "../../src/lib/ids";
import { expectLedgerBalanced } from "../support/ledger";
import {
  balance,
  CASE_KEYS,
  chargeMed,
  chargeStatus,
  eventTypes,
  eventsSince,
  medHarness,
  paidCharge,
  seedMerchant,
} from "./fixtures";
import { transactionRow } from "../payments/support";

const TOKEN = "op-secret-token-for-tests-0123456789";
const NOW = "2026-11-20T12:00:00.000Z";

async function setup() {
  const h = medHarness({ operatorToken: TOKEN });
  h.subscribeAllEvents = true;
  const a = await seedMerchant(h);
  const c = await paidCharge(h, a, 10_000, { livemode: true });
  return { h, a, c };
}
const path = (id: string) => `/v1/operator/charges/${id}/med`;

describe("opening a MED on a live charge as the operator", () => {
  test("opens the case the helper would: 201 the med_case, amount held, charge disputed, payment.failed then med_case.created", async () => {
    const { h, a, c } = await setup();
    expect(await balance(h, a, true)).toEqual({ available: 10_000, pending: 0, retained: 0 });
    const mark = (await eventsSince(h, a, 0, true)).length;
    const res = await h.call("POST", path(c.chargeId), {
      bearer: TOKEN,
      body: { reason: "scam", response_deadline: "2026-11-27T12:00:00Z" },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(CASE_KEYS);
    expect(res.body).toEqual({
      id: res.body.id,
      object: "med_case",
      type: "med",
      status: "open",
      amount: 10_000,
      currency: "BRL",
      charge_id: c.chargeId,
      reason: "scam",
      response_deadline: "2026-11-27T12:00:00.000Z",
      evidence_requested_at: null,
      appeal_reason: null,
      appealed_at: null,
      evidence_count: 0,
      money_outcome: null,
      opened_at: NOW,
      closed_at: null,
      created_at: NOW,
      updated_at: NOW,
    });
    expect(res.body.id).toMatch(/^med_[0-9a-f]{32}$/);
    expect(await balance(h, a, true)).toEqual({ available: 0, pending: 0, retained: 10_000 });
    expect((await h.call("GET", `/v1/charges/${c.chargeId}`, { key: a.liveKey })).body.status).toBe("disputed");
    expect(await chargeMed(h, c)).toMatchObject({ status: "created", method: "scam", reason: "scam" });
    const evs = (await eventsSince(h, a, 0, true)).slice(mark);
    expect(eventTypes(evs)).toEqual(["payment.failed", "med_case.created"]);
    expect(evs[1]!.body).toMatchObject({ type: "med_case.created", data: { object: res.body } });
    // The merchant sees the case with its live key.
    expect((await h.call("GET", `/v1/med/cases/${res.body.id}`, { key: a.liveKey })).body).toEqual(res.body);
    await expectLedgerBalanced(h.deps);
  });

  test("accepts the raw id, no body (defaults: med, the full amount) and a partial amount", async () => {
    const { h, a, c } = await setup();
    const res = await h.call("POST", path(c.rawId), { bearer: TOKEN });
    expect([res.status, res.body.type, res.body.amount, res.body.reason]).toEqual([201, "med", 10_000, null]);
    const d = await paidCharge(h, a, 5_000, { livemode: true });
    const part = await h.call("POST", path(d.chargeId), { bearer: TOKEN, body: { type: "fraud", amount: 2_000 } });
    expect([part.status, part.body.type, part.body.amount]).toEqual([201, "fraud", 2_000]);
    expect(await balance(h, a, true)).toEqual({ available: 3_000, pending: 0, retained: 12_000 });
  });
});

describe("errors change nothing", () => {
  test("an unknown charge is 404 not_found", async () => {
    const { h } = await setup();
    for (const id of [`ch_${rawId()}`, "ch_nope", rawId()]) {
      const res = await h.call("POST", path(id), { bearer: TOKEN, body: {} });
      expect([res.status, res.body.error.code]).toEqual([404, "not_found"]);
    }
  });

  test("a test-mode charge is 403 live_mode_only (the helper's mirror: its live key gets 403 test_mode_only)", async () => {
    const { h, a } = await setup();
    const t = await paidCharge(h, a, 4_000);
    const before = await balance(h, a);
    const res = await h.call("POST", path(t.chargeId), { bearer: TOKEN, body: {} });
    expect([res.status, res.body.error.type, res.body.error.code]).toEqual([403, "permission_error", "live_mode_only"]);
    expect(await balance(h, a)).toEqual(before);
    expect(await chargeStatus(h, a, t)).toBe("paid");
  });

  test("a charge that is not paid, or already has an open case, is 400 invalid_state as with the helper", async () => {
    const { h, a, c } = await setup();
    const id = rawId();
    const now = h.clock.nowMs();
    await h.deps.store.tx((uow) =>
      uow.charges.insert(
        transactionRow({
          id,
          accountId: a.accountId,
          livemode: true,
          amount: 900,
          currency: "BRL",
          status: "WAITING_PAYMENT",
          paymentMethods: '["PIX"]',
          origin: "charges",
          metadata: "{}",
          createdAt: now,
          updatedAt: now,
        }),
      ),
    );
    const pending = await h.call("POST", path(`ch_${id}`), { bearer: TOKEN, body: {} });
    expect([pending.status, pending.body.error.code]).toEqual([400, "invalid_state"]);
    expect((await h.call("POST", path(c.chargeId), { bearer: TOKEN, body: {} })).status).toBe(201);
    const held = await balance(h, a, true);
    const twice = await h.call("POST", path(c.chargeId), { bearer: TOKEN, body: {} });
    expect([twice.status, twice.body.error.code]).toEqual([400, "invalid_state"]);
    expect(await balance(h, a, true)).toEqual(held);
  });

  test("a bad body is 400 naming the field: unknown field, zero amount, past deadline", async () => {
    const { h, a, c } = await setup();
    const before = await balance(h, a, true);
    const cases: [unknown, string, string][] = [
      [{ colour: "red" }, "invalid_request", "colour"],
      [{ amount: 0 }, "invalid_amount", "amount"],
      [{ response_deadline: "2020-01-01T00:00:00Z" }, "invalid_request", "response_deadline"],
      [{ type: "robbery" }, "invalid_request", "type"],
    ];
    for (const [body, code, param] of cases) {
      const res = await h.call("POST", path(c.chargeId), { bearer: TOKEN, body });
      expect([JSON.stringify(body), res.status, res.body.error.code, res.body.error.param]).toEqual([
        JSON.stringify(body),
        400,
        code,
        param,
      ]);
    }
    expect(await balance(h, a, true)).toEqual(before);
    expect(await chargeStatus(h, a, c)).toBe("paid");
  });
});

describe("security", () => {
  test("no token, a wrong token or a merchant API key is 401 and opens nothing", async () => {
    const { h, a, c } = await setup();
    for (const opts of [
      {},
      { bearer: "wrong" },
      { bearer: `${TOKEN}x` },
      { key: a.liveKey },
      { key: a.testKey },
      { headers: { authorization: TOKEN } },
    ]) {
      const res = await h.call("POST", path(c.chargeId), { ...opts, body: {} });
      expect([res.status, res.body.error.type]).toEqual([401, "authentication_error"]);
    }
    expect(await balance(h, a, true)).toEqual({ available: 10_000, pending: 0, retained: 0 });
    expect(await chargeStatus(h, a, c)).toBe("paid");
  });

  test("without COFRE_OPERATOR_TOKEN the route does not exist (404)", async () => {
    const h = medHarness();
    const a = await seedMerchant(h);
    const c = await paidCharge(h, a, 1_000, { livemode: true });
    const res = await h.call("POST", path(c.chargeId), { bearer: TOKEN, body: {} });
    expect(res.status).toBe(404);
  });
});
