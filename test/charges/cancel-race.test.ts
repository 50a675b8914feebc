/**
 * A cancel and a payment confirmation of one waiting charge at the same moment (issue 25 §1): on
 * PostgreSQL two units on two connections, on SQLite one unit after the other. Exactly one wins:
 * the charge ends CANCELLED (nothing credited, `charge.failed`) or PAID (credited once,
 * `charge.paid`), and the loser gets its natural answer (cancel: 400 `charge_not_cancellable`;
 * the payer: the charge as it stands, or 400 `invalid_state`). Before the fix `cancelPayment`
 * read the row without a lock and wrote CANCELLED unconditionally, so a payment confirmed between
 * its read and its write was overwritten: CANCELLED with the money credited.
 */
import { describe, expect, test } from "bun:test";
import { applySettlementNotice, applySettlementNoticeIn } from "../../src/domain/charges/settlement";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { testDb } from "../support/test-db";
import { createPayment, eventTypes } from "../payments/support";

/** Rounds per confirmation path: each is one fresh charge raced once. */
const ROUNDS = 20;

/** Outcome of one race: who won, as the final row, the ledger and the outbox tell it. */
async function settled(h: Harness, id: string) {
  const row = await testDb(h.deps).get<{ status: string }>("select status from transactions where id = ?", id);
  const credits = await testDb(h.deps).get<{ n: number }>(
    "select count(*) as n from ledger_entries where idempotency_key = ?",
    `charge_payment:${id}`,
  );
  return { status: row!.status, credits: Number(credits!.n), events: await eventTypes(h, id) };
}

/** Checks that exactly one side won the race of charge `id` and that ledger and events follow it. */
async function expectOneWinner(
  h: Harness,
  a: SeededAccount,
  id: string,
  cancel: { status: number; body: any },
  payerWon: boolean | null,
) {
  const end = await settled(h, id);
  if (cancel.status === 200) {
    expect(cancel.body.status).toBe("CANCELLED");
    expect(payerWon).not.toBe(true);
    expect(end.status).toBe("CANCELLED");
    expect(end.credits).toBe(0);
    expect(end.events).toEqual(["charge.created", "payment.created", "charge.failed", "payment.failed"]);
  } else {
    expect([cancel.status, cancel.body.error.code]).toEqual([400, "charge_not_cancellable"]);
    expect(payerWon).not.toBe(false);
    expect(end.status).toBe("PAID");
    expect(end.credits).toBe(1);
    expect(end.events).toEqual(["charge.created", "payment.created", "charge.paid", "payment.completed"]);
  }
  const after = await h.call("GET", `/v1/payments/${id}`, { key: a.testKey });
  expect([after.status, after.body.status]).toEqual([200, end.status]);
  return end.status;
}

/** Pending plus available of the account's BRL balance, minor units. */
async function heldBalance(h: Harness, a: SeededAccount): Promise<number> {
  const r = await h.call("GET", "/v1/wallets/balance?currency=BRL", { key: a.testKey });
  expect(r.status).toBe(200);
  return r.body.available + r.body.pending;
}

describe("cancel against a payment confirmation at the same moment", () => {
  test("against the sandbox payer: exactly one wins each time, and the ledger and events match the winner", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ subscribeAllEvents: true });
    const won = { CANCELLED: 0, PAID: 0 } as Record<string, number>;
    for (let i = 0; i < ROUNDS; i++) {
      const p = await createPayment(h, a);
      // The cancel starts 0-3 ms after the payer, so either may reach the charge first.
      const [cancel, pay] = await Promise.all([
        Bun.sleep(i % 4).then(() => h.call("POST", `/v1/payments/${p.id}/cancel`, { key: a.testKey })),
        h.call("POST", `/v1/test_helpers/charges/${p.id}/pay`, { key: a.testKey }),
      ]);
      // The payer's natural answers: the charge as it stands (paid, or cancelled when it came second), or 400 invalid_state.
      if (pay.status === 200) expect(["paid", "cancelled"]).toContain(pay.body.status);
      else expect([pay.status, pay.body.error.code]).toEqual([400, "invalid_state"]);
      won[await expectOneWinner(h, a, p.id, cancel, pay.status === 200 ? pay.body.status === "paid" : false)]!++;
    }
    expect(won.CANCELLED! + won.PAID!).toBe(ROUNDS);
    // Every paid charge was credited once (its amount less its fee), no cancelled one.
    const net = await testDb(h.deps).get<{ n: number }>(
      "select coalesce(sum(amount - platform_fee), 0) as n from transactions where account_id = ? and status = 'PAID'",
      a.accountId,
    );
    expect(await heldBalance(h, a)).toBe(Number(net!.n));
  });

  test("against a provider confirmation (applySettlementNotice): exactly one wins each time", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ subscribeAllEvents: true });
    for (let i = 0; i < ROUNDS; i++) {
      const p = await createPayment(h, a);
      const [cancel, result] = await Promise.all([
        Bun.sleep(i % 4).then(() => h.call("POST", `/v1/payments/${p.id}/cancel`, { key: a.testKey })),
        applySettlementNotice(h.deps, { transactionId: p.id, kind: "paid", method: "PIX", amount: 1000 }),
      ]);
      expect(["paid", "ignored"]).toContain(result.outcome);
      await expectOneWinner(h, a, p.id, cancel, result.outcome === "paid");
    }
  });

  test("a confirmation that holds its lock while the cancel arrives wins, and the cancel gets 400 charge_not_cancellable", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ subscribeAllEvents: true });
    const p = await createPayment(h, a);
    let paid!: () => void;
    const confirmed = new Promise<void>((r) => (paid = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // The confirmation has written PAID and stays uncommitted while the cancel runs.
    const confirmation = h.deps.store.tx(async (uow) => {
      const r = await applySettlementNoticeIn(h.deps, uow, {
        transactionId: p.id,
        kind: "paid",
        method: "PIX",
        amount: 1000,
      });
      paid();
      await held;
      return r;
    });
    await confirmed;
    const cancel = h.call("POST", `/v1/payments/${p.id}/cancel`, { key: a.testKey });
    // Time for the cancel to reach the charge (on PostgreSQL it waits there for the lock; on SQLite for the unit).
    await Bun.sleep(100);
    release();
    expect((await confirmation).outcome).toBe("paid");
    await expectOneWinner(h, a, p.id, await cancel, true);
  });
});
