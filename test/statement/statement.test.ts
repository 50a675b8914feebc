/**
 * GET /v1/wallets/statement (extensions.md "Statement, exports and reconciliation"; issue 27 §1):
 * one line per movement of the wallet's total read from the ledger journal, the running total
 * after each line, available_on, cursor pagination, periods in São Paulo days, errors, isolation.
 */
import { describe, expect, test } from "bun:test";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { dashboardLogin } from "../dashboard/support";
import { available, destination, fund, payout, setup } from "../payouts/support";
import { key, paidPayment } from "../payments/support";
import {
  LINE_FIELDS,
  LIST_FIELDS,
  allLines,
  charge,
  endHold,
  endPayout,
  failRefund,
  hold,
  payoutPosted,
  refund,
  statement,
  total,
  type Wallet,
} from "./support";

async function account(
  settings: Record<string, unknown> = { settlementDelaySeconds: 0 },
  start?: string,
): Promise<{ h: Harness; a: SeededAccount; w: Wallet }> {
  const h = createHarness({}, start);
  const a = await h.seedAccount({ settings });
  return { h, a, w: { h, a } };
}

/** The lines' [type, amount, balance_after], newest first. */
const shape = (lines: any[]) => lines.map((l) => [l.type, l.amount, l.balance_after]);

describe("statement lines", () => {
  test("every kind of movement becomes its lines, newest first, with the running total after each", async () => {
    const { h, a, w } = await account();
    const tx = await charge(w, 10_000, 150);
    h.clock.advance(60);
    const re = await refund(w, tx, 2_000, 50);
    h.clock.advance(60);
    await failRefund(w, re);
    h.clock.advance(60);
    const po1 = await payoutPosted(w, 3_000, 100);
    h.clock.advance(60);
    await endPayout(w, po1, "reversed");
    h.clock.advance(60);
    const po2 = await payoutPosted(w, 1_000);
    h.clock.advance(60);
    await endPayout(w, po2, "paid");
    const med1 = await hold(w, 500);
    h.clock.advance(60);
    await endHold(w, med1, "refunded_to_merchant");
    h.clock.advance(60);
    const med2 = await hold(w, 700);
    h.clock.advance(60);
    await endHold(w, med2, "lost");

    const body = await statement(h, a.testKey, "limit=100");
    expect(Object.keys(body).sort()).toEqual(LIST_FIELDS);
    expect(body.object).toBe("list");
    expect(body.has_more).toBe(false);
    expect(body.next_cursor).toBeNull();
    for (const l of body.data) expect(Object.keys(l).sort()).toEqual(LINE_FIELDS);
    expect(shape(body.data)).toEqual([
      ["med_hold", -700, 8_150],
      ["med_release", 500, 8_850],
      ["med_hold", -500, 8_350],
      ["payout", -1_000, 8_850],
      ["payout_reversal", 3_100, 9_850],
      ["payout_fee", -100, 6_750],
      ["payout", -3_000, 6_850],
      ["refund_reversal", 2_050, 9_850],
      ["fee", -50, 7_800],
      ["refund", -2_000, 7_850],
      ["fee", -150, 9_850],
      ["charge", 10_000, 10_000],
    ]);
    expect(body.data[0].balance_after).toBe(await total(h, a.testKey));
    expect(body.data.map((l: any) => l.reference_id)).toEqual([
      med2,
      med1,
      med1,
      po2,
      po1,
      po1,
      po1,
      re,
      re,
      re,
      tx,
      tx,
    ]);
    expect(body.data.map((l: any) => l.description)).toEqual([
      "Bloqueio MED",
      "Liberação MED",
      "Bloqueio MED",
      "Saque",
      "Estorno de saque",
      "Tarifa de saque",
      "Saque",
      "Estorno de devolução",
      "Tarifa",
      "Devolução",
      "Tarifa",
      "Recebimento",
    ]);
    // A movement and its fee share the entry's time; ids are distinct and stable.
    const [fee, chargeLine] = body.data.slice(-2);
    expect(chargeLine.created_at).toBe("2026-11-20T12:00:00.000Z");
    expect(fee.created_at).toBe(chargeLine.created_at);
    expect(fee.id).toBe(chargeLine.id.replace(/_0$/, "_1"));
    expect(new Set(body.data.map((l: any) => l.id)).size).toBe(12);
    expect((await statement(h, a.testKey, "limit=100")).data).toEqual(body.data);
  });

  test("a charge's lines are available on its release, and the release itself is not a line", async () => {
    const { h, a, w } = await account({ settlementDelaySeconds: 86_400 });
    await charge(w, 5_000, 100);
    h.clock.advance(3_600);
    const po = await payoutPosted(w, 1, 0).catch((e) => e);
    expect(po.code).toBe("insufficient_balance");
    const before = await statement(h, a.testKey);
    expect(before.data.map((l: any) => [l.type, l.available_on])).toEqual([
      ["fee", "2026-11-21T12:00:00.000Z"],
      ["charge", "2026-11-21T12:00:00.000Z"],
    ]);
    h.clock.advance(86_400);
    await h.deps.jobs.drain();
    const r = await h.call("GET", "/v1/wallets/balance", { key: a.testKey });
    expect([r.body.available, r.body.pending]).toEqual([4_900, 0]);
    const after = await statement(h, a.testKey);
    expect(after.data).toEqual(before.data);
    const re = await refund(w, (await statement(h, a.testKey)).data[0].reference_id, 900);
    const now = new Date(h.clock.nowMs()).toISOString();
    expect((await statement(h, a.testKey)).data[0]).toMatchObject({
      type: "refund",
      amount: -900,
      balance_after: 4_000,
      created_at: now,
      available_on: now,
      reference_id: re,
    });
  });

  test("a payout that fails through the API shows its payout, fee and reversal lines", async () => {
    const { h, a } = await setup({ payoutFeeFixed: 25 });
    await fund(h, a, 10_000);
    const d = await destination(h, a);
    const po = await payout(h, a.testKey, { amount: 1_500, destination_id: d.id });
    expect(po.status).toBe(201);
    h.clock.advance(5);
    const failed = await h.call("POST", `/v1/test_helpers/payouts/${po.body.id}/fail`, { key: a.testKey, body: {} });
    expect(failed.status).toBe(200);
    const lines = (await statement(h, a.testKey)).data;
    expect(lines.map((l: any) => [l.type, l.amount, l.balance_after, l.reference_id])).toEqual([
      ["payout_reversal", 1_525, 10_000, po.body.id],
      ["payout_fee", -25, 8_475, po.body.id],
      ["payout", -1_500, 8_500, po.body.id],
      ["charge", 10_000, 10_000, lines[3].reference_id],
    ]);
    expect(await available(h, a.testKey)).toBe(10_000);
  });

  test("a paid payment and a refund that fails through the API show charge, fee, refund and refund_reversal", async () => {
    const { h, a } = await account({ settlementDelaySeconds: 0, pixFeeFixed: 100 });
    const p = await paidPayment(h, a, 5_000);
    h.clock.advance(60);
    const r = await h.call("POST", `/v1/payments/${p.id}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: key("refund"), amount: 1_200 },
    });
    expect(r.status).toBe(201);
    h.clock.advance(1);
    const failed = await h.call("POST", `/v1/test_helpers/refunds/${r.body.id}/advance`, {
      key: a.testKey,
      body: { to: "FAILED" },
    });
    expect(failed.body.status).toBe("FAILED");
    const lines = (await statement(h, a.testKey)).data;
    expect(lines.map((l: any) => [l.type, l.amount, l.balance_after, l.reference_id])).toEqual([
      ["refund_reversal", 1_200, 4_900, r.body.id],
      ["refund", -1_200, 3_700, r.body.id],
      ["fee", -100, 4_900, p.id],
      ["charge", 5_000, 5_000, p.id],
    ]);
    expect(lines[0].balance_after).toBe(await total(h, a.testKey));
  });

  test("a MED case opened on a paid payment shows its hold", async () => {
    const { h, a } = await account();
    const p = await paidPayment(h, a, 3_000);
    h.clock.advance(60);
    const med = await h.call("POST", `/v1/test_helpers/charges/ch_${p.id}/med`, {
      key: a.testKey,
      body: { reason: "scam", response_deadline: "2030-01-01T00:00:00.000Z" },
    });
    expect(med.status).toBeLessThan(300);
    const lines = (await statement(h, a.testKey)).data;
    expect(lines.map((l: any) => [l.type, l.amount, l.balance_after, l.reference_id])).toEqual([
      ["med_hold", -med.body.amount, 3_000 - med.body.amount, med.body.id],
      ["charge", 3_000, 3_000, p.id],
    ]);
  });

  test("an empty wallet has an empty statement", async () => {
    const { h, a } = await account();
    expect(await statement(h, a.testKey)).toEqual({ object: "list", data: [], has_more: false, next_cursor: null });
  });
});

describe("statement pages and periods", () => {
  test("pages follow next_cursor through movements and fees without a gap or a repeat", async () => {
    const { h, a, w } = await account();
    for (let i = 1; i <= 7; i++) {
      await charge(w, 1_000 * i, i % 2 ? 10 * i : 0);
      h.clock.advance(1);
    }
    const whole = (await statement(h, a.testKey, "limit=100")).data;
    expect(whole).toHaveLength(11);
    for (const limit of [1, 2, 3, 4]) expect([limit, await allLines(h, a.testKey, "", limit)]).toEqual([limit, whole]);
    const first = await statement(h, a.testKey, "limit=3");
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe(whole[2].id);
    const last = await statement(h, a.testKey, `limit=3&starting_after=${whole[7].id}`);
    expect(last).toEqual({ object: "list", data: whole.slice(8), has_more: false, next_cursor: null });
    expect((await statement(h, a.testKey)).data).toHaveLength(11);
  });

  test("from and to select São Paulo days, inclusive", async () => {
    // 02:59 UTC on the 20th is still the 19th in São Paulo (UTC-3).
    const { h, a, w } = await account(undefined, "2026-11-20T02:59:00.000Z");
    await charge(w, 100);
    h.clock.advance(60);
    await charge(w, 200);
    h.clock.advance(86_400);
    await charge(w, 400);
    const types = async (q: string) => (await statement(h, a.testKey, q)).data.map((l: any) => l.amount);
    expect(await types("from=2026-11-19&to=2026-11-19")).toEqual([100]);
    expect(await types("from=2026-11-20&to=2026-11-20")).toEqual([200]);
    expect(await types("from=2026-11-20")).toEqual([400, 200]);
    expect(await types("to=2026-11-20")).toEqual([200, 100]);
    expect(await types("from=2026-11-22")).toEqual([]);
    const page = await statement(h, a.testKey, "from=2026-11-20&to=2026-11-20");
    expect(page.data[0].balance_after).toBe(300);
  });
});

describe("statement errors", () => {
  test("bad dates, limits, parameters and cursors are 400 naming the parameter", async () => {
    const { h, a, w } = await account();
    await charge(w, 100);
    const other = await h.seedAccount({ settings: { settlementDelaySeconds: 0 } });
    await charge({ h, a: other }, 100);
    const foreign = (await statement(h, other.testKey)).data[0].id;
    const cases: [string, string, string][] = [
      ["from=2026-13-01", "from", "invalid_request"],
      ["to=2026-02-30", "to", "invalid_request"],
      ["from=20261101", "from", "invalid_request"],
      ["from=2026-11-01T00:00:00Z", "from", "invalid_request"],
      ["from=2026-11-21&to=2026-11-20", "from", "invalid_request"],
      ["limit=0", "limit", "invalid_request"],
      ["limit=101", "limit", "invalid_request"],
      ["limit=1.5", "limit", "invalid_request"],
      ["page=2", "page", "invalid_request"],
      ["currency=BRL", "currency", "invalid_request"],
      ["from=2026-11-01&from=2026-11-02", "from", "invalid_request"],
      ["starting_after=je_123", "starting_after", "invalid_cursor"],
      [`starting_after=${foreign}`, "starting_after", "invalid_cursor"],
    ];
    for (const [q, param, code] of cases) {
      const r = await h.call("GET", `/v1/wallets/statement?${q}`, { key: a.testKey });
      expect([q, r.status, r.body.error.code, r.body.error.param]).toEqual([q, 400, code, param]);
    }
  });

  test("no key is 401", async () => {
    const { h } = await account();
    const r = await h.call("GET", "/v1/wallets/statement");
    expect([r.status, r.body.error.code]).toEqual([401, "unauthorized"]);
  });
});

describe("statement isolation", () => {
  test("another account and the other mode see nothing of a wallet's lines", async () => {
    const { h, a, w } = await account();
    await charge(w, 1_000, 10);
    await charge({ h, a, livemode: true }, 7_000);
    const other = await h.seedAccount();
    expect((await statement(h, other.testKey)).data).toEqual([]);
    expect((await statement(h, other.liveKey)).data).toEqual([]);
    expect(shape((await statement(h, a.testKey)).data)).toEqual([
      ["fee", -10, 990],
      ["charge", 1_000, 1_000],
    ]);
    expect(shape((await statement(h, a.liveKey)).data)).toEqual([["charge", 7_000, 7_000]]);
    const testCursor = (await statement(h, a.testKey)).data[0].id;
    const r = await h.call("GET", `/v1/wallets/statement?starting_after=${testCursor}`, { key: a.liveKey });
    expect([r.status, r.body.error.code]).toEqual([400, "invalid_cursor"]);
  });

  test("a dashboard session reads the statement of the mode it names", async () => {
    const { h, a, w } = await account();
    await charge(w, 1_000);
    await charge({ h, a, livemode: true }, 7_000);
    const s = await dashboardLogin(h, a.email, a.password);
    const test_ = await s.call("GET", "/v1/wallets/statement");
    const live = await s.call("GET", "/v1/wallets/statement", { mode: "live" });
    expect([test_.status, test_.body.data.map((l: any) => l.amount)]).toEqual([200, [1_000]]);
    expect([live.status, live.body.data.map((l: any) => l.amount)]).toEqual([200, [7_000]]);
  });
});
