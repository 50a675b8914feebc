/**
 * Operator ruling `POST /v1/operator/med/cases/{id}/resolve` (extensions.md "Operator API"):
 * token handling, cases under operations review, live cases, and live notices through
 * `applyMedNotice` (the one opening path shared with the sandbox helper).
 */
import { describe, expect, test } from "bun:test";
import { applyMedNotice } from "../../src/domain/med/service";
import { expectLedgerBalanced } from "../support/ledger";
import {
  balance,
  chargeMed,
  chargeStatus,
  eventTypes,
  eventsSince,
  medHarness,
  openMed,
  paidCharge,
  seedMerchant,
} from "./fixtures";

const TOKEN = "op-secret-token-for-tests-0123456789";

async function setup() {
  const h = medHarness({ operatorToken: TOKEN });
  const a = await seedMerchant(h);
  const c = await paidCharge(h, a, 10_000);
  return { h, a, c };
}

describe("operator authentication", () => {
  test("without COFRE_OPERATOR_TOKEN the route does not exist (404)", async () => {
    const h = medHarness();
    const a = await seedMerchant(h);
    const kase = await openMed(h, a, await paidCharge(h, a));
    const res = await h.call("POST", `/v1/operator/med/cases/${kase.id}/resolve`, {
      bearer: TOKEN,
      body: { outcome: "upheld" },
    });
    expect(res.status).toBe(404);
  });

  test("a missing or wrong token is 401 and changes nothing", async () => {
    const { h, a, c } = await setup();
    const kase = await openMed(h, a, c);
    for (const opts of [
      {},
      { bearer: "wrong" },
      { bearer: `${TOKEN}x` },
      { key: a.testKey },
      { headers: { authorization: TOKEN } },
    ]) {
      const res = await h.call("POST", `/v1/operator/med/cases/${kase.id}/resolve`, {
        ...opts,
        body: { outcome: "upheld" },
      });
      expect(res.status).toBe(401);
      expect(res.body.error.type).toBe("authentication_error");
    }
    expect((await h.call("GET", `/v1/med/cases/${kase.id}`, { key: a.testKey })).body.status).toBe("open");
  });
});

describe("operator rulings", () => {
  test("rules on a case under review for an amount mismatch: merchant_favor returns the hold", async () => {
    const { h, a, c } = await setup();
    const kase = await openMed(h, a, c, { amount: 12_000 });
    expect(await chargeStatus(h, a, c)).toBe("paid");
    expect(await balance(h, a)).toEqual({ available: 0, pending: 0, retained: 10_000 });
    const mark = (await eventsSince(h, a)).length;
    const res = await h.call("POST", `/v1/operator/med/cases/${kase.id}/resolve`, {
      bearer: TOKEN,
      body: { outcome: "merchant_favor" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: kase.id,
      object: "med_case",
      status: "closed",
      money_outcome: "refunded_to_merchant",
      amount: 12_000,
    });
    expect(await balance(h, a)).toEqual({ available: 10_000, pending: 0, retained: 0 });
    expect(await chargeStatus(h, a, c)).toBe("paid");
    expect(await chargeMed(h, c)).toMatchObject({ amountMismatch: true, status: "closed", result: "disagreed" });
    expect(eventTypes((await eventsSince(h, a)).slice(mark))).toEqual(["med_case.updated", "med.resolved"]);
    await expectLedgerBalanced(h.deps);
    const again = await h.call("POST", `/v1/operator/med/cases/${kase.id}/resolve`, {
      bearer: TOKEN,
      body: { outcome: "upheld" },
    });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("invalid_state");
  });

  test("rules on live cases too (opened by a live provider notice)", async () => {
    const { h, a } = await setup();
    const live = await paidCharge(h, a, 8_000, { livemode: true });
    const row = await applyMedNotice(h.deps, {
      accountId: a.accountId,
      livemode: true,
      transactionId: live.rawId,
      externalId: "provider-infraction-1",
      reason: "fraude",
      method: "unauthorized",
      payerName: "Fulano de Tal",
    });
    // The same provider notice delivered twice opens one case.
    const replay = await applyMedNotice(h.deps, {
      accountId: a.accountId,
      livemode: true,
      transactionId: live.rawId,
      externalId: "provider-infraction-1",
    });
    expect(replay.id).toBe(row.id);
    expect(await balance(h, a, true)).toEqual({ available: 0, pending: 0, retained: 8_000 });
    expect((await h.call("GET", `/v1/med/cases/${row.id}`, { key: a.testKey })).status).toBe(404);
    expect((await h.call("GET", `/v1/med/cases/${row.id}`, { key: a.liveKey })).body.status).toBe("open");
    expect(await chargeMed(h, live)).toMatchObject({ method: "unauthorized", payerName: "Fulano de Tal" });
    const res = await h.call("POST", `/v1/operator/med/cases/${row.id}/resolve`, {
      bearer: TOKEN,
      body: { outcome: "upheld" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "rejected", money_outcome: "lost" });
    expect(await balance(h, a, true)).toEqual({ available: 0, pending: 0, retained: 0 });
    expect(eventTypes(await eventsSince(h, a, 0, true))).toEqual([
      "payment.failed",
      "med_case.created",
      "med_case.updated",
      "med.resolved",
    ]);
    expect((await eventsSince(h, a, 0, false)).some((e) => e.type.startsWith("med"))).toBe(false);
    await expectLedgerBalanced(h.deps);
  });

  test("an unknown case is 404 and an unknown outcome or extra field is 400", async () => {
    const { h, a, c } = await setup();
    const kase = await openMed(h, a, c);
    expect(
      (
        await h.call("POST", "/v1/operator/med/cases/med_00000000000000000000000000000000/resolve", {
          bearer: TOKEN,
          body: { outcome: "upheld" },
        })
      ).status,
    ).toBe(404);
    for (const body of [{ outcome: "lost" }, {}, { outcome: "upheld", note: "x" }]) {
      const res = await h.call("POST", `/v1/operator/med/cases/${kase.id}/resolve`, { bearer: TOKEN, body });
      expect(res.status).toBe(400);
    }
  });
});

describe("a disputed charge", () => {
  test("cannot be refunded while the MED holds it", async () => {
    const { h, a, c } = await setup();
    await openMed(h, a, c);
    const res = await h.call("POST", `/v1/payments/${c.rawId}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: "med-refund-1" },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("charge_disputed");
    expect(await balance(h, a)).toEqual({ available: 0, pending: 0, retained: 10_000 });
  });

  test("shows disputed with the informational metadata.med block on GET /v1/charges/{id}", async () => {
    const { h, a, c } = await setup();
    await openMed(h, a, c, { reason: "coercion" });
    const res = await h.call("GET", `/v1/charges/${c.chargeId}`, { key: a.testKey });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("disputed");
    expect(res.body.metadata.med).toMatchObject({ status: "created", method: "coercion", reason: "coercion" });
  });

  test("the wallet balance endpoint shows the hold in retained", async () => {
    const { h, a, c } = await setup();
    await openMed(h, a, c);
    const res = await h.call("GET", "/v1/wallets/balance", { key: a.testKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ available: 0, retained: 10_000 });
  });
});
