/**
 * MED case status table, row by row (interface.md "MED case status", extensions.md helpers):
 * balances before and after, charge status, events written, ledger integrity.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import type { SeededAccount } from "../support/harness";
import { expectLedgerBalanced } from "../support/ledger";
import {
  CASE_KEYS,
  balance,
  chargeMed,
  chargeStatus,
  eventTypes,
  eventsSince,
  medHarness,
  openMed,
  paidCharge,
  seedMerchant,
  type MedHarness,
  type PaidCharge,
} from "./fixtures";

let h: MedHarness;
let a: SeededAccount;
let c: PaidCharge;

beforeEach(async () => {
  h = medHarness();
  a = await seedMerchant(h);
  c = await paidCharge(h, a, 10_000);
});

const NOW = "2026-11-20T12:00:00.000Z";

async function act(path: string, body?: unknown) {
  return h.call("POST", path, { key: a.testKey, body });
}

describe("opening a MED (none -> open)", () => {
  test("creates an open case, holds the amount, marks the charge disputed and emits only med_case.created", async () => {
    expect(await balance(h, a)).toEqual({ available: 10_000, pending: 0, retained: 0 });
    const mark = (await eventsSince(h, a)).length;
    const res = await act(`/v1/test_helpers/charges/${c.chargeId}/med`, {
      reason: "scam",
      response_deadline: "2026-11-27T12:00:00Z",
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(CASE_KEYS);
    expect(res.body.id).toMatch(/^med_[0-9a-f]{32}$/);
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
    expect(await balance(h, a)).toEqual({ available: 0, pending: 0, retained: 10_000 });
    expect(await chargeStatus(h, a, c)).toBe("disputed");
    const med = await chargeMed(h, c);
    expect(med).toMatchObject({
      status: "created",
      method: "scam",
      reason: "scam",
      openedAt: NOW,
      updatedAt: NOW,
      lastEventAt: NOW,
    });
    expect(med.referenceId).toMatch(/^E\d{20}[a-zA-Z0-9]{11}$/);
    expect(med.amountMismatch).toBeUndefined();
    const evs = (await eventsSince(h, a)).slice(mark);
    // No charge.* event for a MED; the legacy family reports the transaction reaching DISPUTE.
    expect(eventTypes(evs)).toEqual(["payment.failed", "med_case.created"]);
    expect(evs[0]!.body).toMatchObject({
      event: "payment.failed",
      data: { transactionId: c.rawId, status: "DISPUTE", previousStatus: "PAID" },
    });
    expect(evs[1]!.family).toBe("med");
    expect(evs[1]!.transactionId).toBe(c.rawId);
    expect(evs[1]!.body).toMatchObject({ object: "event", type: "med_case.created", data: { object: res.body } });
    await expectLedgerBalanced(h.deps);
  });

  test("the amount may push available below zero when the money is still pending", async () => {
    const b = await seedMerchant(h, 86_400);
    const pend = await paidCharge(h, b, 7_000);
    expect(await balance(h, b)).toEqual({ available: 0, pending: 7_000, retained: 0 });
    await openMed(h, b, pend);
    expect(await balance(h, b)).toEqual({ available: -7_000, pending: 7_000, retained: 7_000 });
    await expectLedgerBalanced(h.deps);
  });

  test("accepts a raw charge id and the other case types, and defaults to med with the full amount", async () => {
    const res = await act(`/v1/test_helpers/charges/${c.rawId}/med`, { type: "fraud" });
    expect(res.status).toBe(201);
    const kase = res.body;
    expect(kase.type).toBe("fraud");
    expect(kase.charge_id).toBe(c.chargeId);
    expect(kase.amount).toBe(10_000);
    expect(kase.response_deadline).toBeNull();
  });

  test("an amount different from the charge amount opens the case under review without changing the charge status", async () => {
    const mark = (await eventsSince(h, a)).length;
    const kase = await openMed(h, a, c, { amount: 4_000 });
    expect(kase.status).toBe("open");
    expect(kase.amount).toBe(4_000);
    expect(await chargeStatus(h, a, c)).toBe("paid");
    expect((await chargeMed(h, c)).amountMismatch).toBe(true);
    expect(await balance(h, a)).toEqual({ available: 6_000, pending: 0, retained: 4_000 });
    expect(eventTypes((await eventsSince(h, a)).slice(mark))).toEqual(["med_case.created"]);
    // A second notice on the same charge is refused while the case is not final.
    const again = await act(`/v1/test_helpers/charges/${c.chargeId}/med`, {});
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("invalid_state");
    await expectLedgerBalanced(h.deps);
  });
});

describe("merchant actions", () => {
  test("appeal moves open -> appealed with reason and time, keeps the hold and emits med_case.updated", async () => {
    const kase = await openMed(h, a, c);
    h.clock.advance(60);
    const mark = (await eventsSince(h, a)).length;
    const res = await act(`/v1/med/cases/${kase.id}/appeal`, {
      reason: "  Goods were delivered, tracking attached.  ",
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(CASE_KEYS);
    expect(res.body).toMatchObject({
      status: "appealed",
      appeal_reason: "Goods were delivered, tracking attached.",
      appealed_at: "2026-11-20T12:01:00.000Z",
      updated_at: "2026-11-20T12:01:00.000Z",
      money_outcome: null,
      closed_at: null,
    });
    expect(await balance(h, a)).toEqual({ available: 0, pending: 0, retained: 10_000 });
    expect(await chargeStatus(h, a, c)).toBe("disputed");
    expect((await chargeMed(h, c)).status).toBe("delivered");
    const evs = (await eventsSince(h, a)).slice(mark);
    expect(eventTypes(evs)).toEqual(["med_case.updated"]);
    expect(evs[0]!.body.data.object).toEqual(res.body);
    await expectLedgerBalanced(h.deps);
  });

  test("accept moves open -> accepted, lost, final; the amount stays debited and med.resolved is emitted", async () => {
    const kase = await openMed(h, a, c);
    const mark = (await eventsSince(h, a)).length;
    const res = await act(`/v1/med/cases/${kase.id}/accept`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "accepted", money_outcome: "lost", closed_at: NOW });
    expect(await balance(h, a)).toEqual({ available: 0, pending: 0, retained: 0 });
    expect(await chargeStatus(h, a, c)).toBe("disputed");
    expect(await chargeMed(h, c)).toMatchObject({ status: "closed", result: "agreed", closedAt: NOW });
    const evs = (await eventsSince(h, a)).slice(mark);
    expect(eventTypes(evs)).toEqual(["med_case.updated", "med.resolved"]);
    expect(evs[1]!.body.data.object).toEqual({
      object: "med_resolution",
      med_case_id: kase.id,
      charge_id: c.chargeId,
      status: "accepted",
      money_outcome: "lost",
      amount: 10_000,
      currency: "BRL",
      resolved_at: NOW,
    });
    await expectLedgerBalanced(h.deps);
    for (const path of ["accept", "appeal"]) {
      const again = await act(
        `/v1/med/cases/${kase.id}/${path}`,
        path === "appeal" ? { reason: "too late now" } : undefined,
      );
      expect(again.status).toBe(400);
      expect(again.body.error.code).toBe("invalid_state");
    }
    const ruling = await act(`/v1/test_helpers/med/cases/${kase.id}/resolve`, { outcome: "merchant_favor" });
    expect(ruling.status).toBe(400);
    expect(ruling.body.error.code).toBe("invalid_state");
    expect(await balance(h, a)).toEqual({ available: 0, pending: 0, retained: 0 });
  });

  test("an appealed case can be neither appealed again nor accepted", async () => {
    const kase = await openMed(h, a, c);
    expect((await act(`/v1/med/cases/${kase.id}/appeal`, { reason: "first appeal" })).status).toBe(200);
    const again = await act(`/v1/med/cases/${kase.id}/appeal`, { reason: "second appeal" });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_state" });
    const accept = await act(`/v1/med/cases/${kase.id}/accept`);
    expect(accept.status).toBe(400);
    expect(accept.body.error.code).toBe("invalid_state");
  });

  test("accept takes no body: a field sent to it is 400 naming the field and the case stays open", async () => {
    const kase = await openMed(h, a, c);
    const res = await act(`/v1/med/cases/${kase.id}/accept`, { reason: "meant to appeal" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: "invalid_request_error", code: "invalid_request", param: "reason" });
    const after = await h.call("GET", `/v1/med/cases/${kase.id}`, { key: a.testKey });
    expect([after.body.status, after.body.money_outcome]).toEqual(["open", null]);
    expect(await balance(h, a)).toEqual({ available: 0, pending: 0, retained: 10_000 });
    expect((await act(`/v1/med/cases/${kase.id}/accept`, {})).status).toBe(200);
  });
});

describe("rulings", () => {
  const rows: [string, "open" | "appealed", string, string, string, { available: number; retained: number }][] = [
    ["upheld", "appealed", "rejected", "lost", "disputed", { available: 0, retained: 0 }],
    ["upheld", "open", "rejected", "lost", "disputed", { available: 0, retained: 0 }],
    ["merchant_favor", "appealed", "closed", "refunded_to_merchant", "paid", { available: 10_000, retained: 0 }],
    ["merchant_favor", "open", "closed", "refunded_to_merchant", "paid", { available: 10_000, retained: 0 }],
    ["withdrawn", "open", "closed", "refunded_to_merchant", "paid", { available: 10_000, retained: 0 }],
    ["withdrawn", "appealed", "closed", "refunded_to_merchant", "paid", { available: 10_000, retained: 0 }],
    ["closed_without_refund", "appealed", "closed", "closed_without_refund", "disputed", { available: 0, retained: 0 }],
    ["closed_without_refund", "open", "closed", "closed_without_refund", "disputed", { available: 0, retained: 0 }],
  ];
  for (const [outcome, from, status, money, charge, after] of rows) {
    test(`${outcome} on an ${from} case -> ${status} / ${money}, charge ${charge}`, async () => {
      const kase = await openMed(h, a, c);
      if (from === "appealed")
        expect((await act(`/v1/med/cases/${kase.id}/appeal`, { reason: "we shipped it" })).status).toBe(200);
      expect(await balance(h, a)).toEqual({ available: 0, pending: 0, retained: 10_000 });
      h.clock.advance(3600);
      const mark = (await eventsSince(h, a)).length;
      const res = await act(`/v1/test_helpers/med/cases/${kase.id}/resolve`, { outcome });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(CASE_KEYS);
      expect(res.body).toMatchObject({ status, money_outcome: money, closed_at: "2026-11-20T13:00:00.000Z" });
      expect(await balance(h, a)).toEqual({ ...after, pending: 0 });
      expect(await chargeStatus(h, a, c)).toBe(charge);
      const evs = (await eventsSince(h, a)).slice(mark);
      // Only a win returns the transaction to PAID, which the legacy family reports as a status change.
      const legacy = charge === "paid" ? ["payment.status_changed"] : [];
      expect(eventTypes(evs)).toEqual([...legacy, "med_case.updated", "med.resolved"]);
      const med = evs.filter((e) => e.family === "med");
      expect(med[1]!.body.data.object).toMatchObject({ med_case_id: kase.id, money_outcome: money, status });
      if (charge === "paid") expect(evs[0]!.body.data).toMatchObject({ status: "PAID", previousStatus: "DISPUTE" });
      expect(evs.some((e) => e.type.startsWith("charge."))).toBe(false);
      await expectLedgerBalanced(h.deps);
      const again = await act(`/v1/test_helpers/med/cases/${kase.id}/resolve`, { outcome: "upheld" });
      expect(again.status).toBe(400);
      expect(again.body.error.code).toBe("invalid_state");
    });
  }

  test("an unknown outcome is a 400 naming the field", async () => {
    const kase = await openMed(h, a, c);
    const res = await act(`/v1/test_helpers/med/cases/${kase.id}/resolve`, { outcome: "won" });
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe("outcome");
  });

  test("a case closed in the merchant's favour lets a new MED open on the charge later", async () => {
    const kase = await openMed(h, a, c);
    await act(`/v1/test_helpers/med/cases/${kase.id}/resolve`, { outcome: "merchant_favor" });
    const second = await openMed(h, a, c);
    expect(second.id).not.toBe(kase.id);
    expect(await balance(h, a)).toEqual({ available: 0, pending: 0, retained: 10_000 });
    await expectLedgerBalanced(h.deps);
  });
});

describe("evidence requests and the response deadline", () => {
  test("request_evidence sets evidence_requested_at and emits med_case.updated", async () => {
    const kase = await openMed(h, a, c);
    h.clock.advance(120);
    const mark = (await eventsSince(h, a)).length;
    const res = await act(`/v1/test_helpers/med/cases/${kase.id}/request_evidence`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "open", evidence_requested_at: "2026-11-20T12:02:00.000Z" });
    expect(eventTypes((await eventsSince(h, a)).slice(mark))).toEqual(["med_case.updated"]);
  });

  test("an open case whose deadline passes without a response becomes accepted / lost", async () => {
    const kase = await openMed(h, a, c, { response_deadline: "2026-11-20T18:00:00Z" });
    h.clock.advance(6 * 3600 - 1);
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/med/cases/${kase.id}`, { key: a.testKey })).body.status).toBe("open");
    const mark = (await eventsSince(h, a)).length;
    expect((await act("/v1/test_helpers/clock/advance", { seconds: 1 })).status).toBe(200);
    expect(await h.deps.jobs.pending("med.deadline")).toBe(0);
    const after = await h.call("GET", `/v1/med/cases/${kase.id}`, { key: a.testKey });
    expect(after.body).toMatchObject({
      status: "accepted",
      money_outcome: "lost",
      closed_at: "2026-11-20T18:00:00.000Z",
    });
    expect(await balance(h, a)).toEqual({ available: 0, pending: 0, retained: 0 });
    expect(eventTypes((await eventsSince(h, a)).slice(mark))).toEqual(["med_case.updated", "med.resolved"]);
    await expectLedgerBalanced(h.deps);
  });

  test("an appealed case is not touched by its deadline", async () => {
    const kase = await openMed(h, a, c, { response_deadline: "2026-11-20T18:00:00Z" });
    expect(await h.deps.jobs.pending("med.deadline")).toBe(1);
    await act(`/v1/med/cases/${kase.id}/appeal`, { reason: "we shipped it" });
    expect(await h.deps.jobs.pending("med.deadline")).toBe(0);
    h.clock.advance(7 * 3600);
    await h.deps.jobs.drain();
    const after = await h.call("GET", `/v1/med/cases/${kase.id}`, { key: a.testKey });
    expect(after.body).toMatchObject({ status: "appealed", money_outcome: null });
    expect((await await balance(h, a)).retained).toBe(10_000);
  });

  test("a case under review for an amount mismatch stays open past its deadline", async () => {
    const kase = await openMed(h, a, c, { amount: 3_000, response_deadline: "2026-11-20T18:00:00Z" });
    h.clock.advance(7 * 3600);
    await h.deps.jobs.drain();
    const after = await h.call("GET", `/v1/med/cases/${kase.id}`, { key: a.testKey });
    expect(after.body.status).toBe("open");
  });
});
