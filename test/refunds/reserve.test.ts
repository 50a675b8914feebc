/**
 * Refund creation reads the transaction, then reserves its refundable remainder with a
 * conditional write (src/store/port/refunds.ts reserveRefundable): whatever changed between the
 * read and the write (a dispute, another refund; concurrent units on PostgreSQL), the write
 * refuses and the refund changes nothing. The tests make the change between the unit's read and
 * its write: on SQLite, where units never interleave, from inside the refund's own unit (its
 * connection: the change rolls back with the unit); on PostgreSQL from another connection, committed
 * as a concurrent unit's would be (it stays).
 */
import { describe, expect, test } from "bun:test";
import { getBalance } from "../../src/domain/ledger";
import type { Uow } from "../../src/store/port";
import { createHarness, type Harness } from "../support/harness";
import { forceStatus, key, paidPayment } from "../payments/support";
import { testDb } from "../support/test-db";

const SETTLED = ["PAID", "APPROVED"];

/** The stored refunded amount, the refund rows and the refund jobs of transaction `id` (an oracle beside the API). */
async function stored(h: Harness, id: string) {
  const db = testDb(h.deps);
  const n = async (sql: string, ...params: unknown[]) => (await db.get<{ n: number }>(sql, ...params))!.n;
  return {
    refundedAmount: await n("SELECT refunded_amount AS n FROM transactions WHERE id = ?", id),
    refunds: await n("SELECT count(*) AS n FROM refunds WHERE transaction_id = ?", id),
    jobs: await n("SELECT count(*) AS n FROM jobs WHERE kind = 'refund.advance'"),
  };
}

/**
 * Runs `between` inside the next unit that reserves a refundable remainder: after the unit read the transaction, before
 * the write.
 */
function betweenReadAndWrite(h: Harness, between: () => Promise<unknown>): void {
  const store = h.deps.store;
  const tx = store.tx.bind(store);
  let armed = true;
  store.tx = (fn) =>
    tx((uow) => {
      const refunds = Object.create(uow.refunds) as Uow["refunds"];
      refunds.reserveRefundable = async (...args) => {
        if (armed) {
          armed = false;
          await between();
        }
        return uow.refunds.reserveRefundable(...args);
      };
      // A proxy, not a prototype: adapters' units may read their repositories through getters over private fields.
      return fn(
        new Proxy(uow, { get: (target, name) => (name === "refunds" ? refunds : Reflect.get(target, name, target)) }),
      );
    });
}

describe("the refundable remainder's conditional write", () => {
  test("reserves only while the transaction is settled and the refunded total stays within its amount", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await paidPayment(h, a, 1000);
    const reserve = (amount: number) =>
      h.deps.store.tx((uow) => uow.refunds.reserveRefundable(p.id, amount, SETTLED, h.deps.clock.nowMs()));
    expect(await reserve(600)).toBe(true);
    expect((await stored(h, p.id)).refundedAmount).toBe(600);
    expect(await reserve(401)).toBe(false);
    expect((await stored(h, p.id)).refundedAmount).toBe(600);
    expect(await reserve(400)).toBe(true);
    expect((await stored(h, p.id)).refundedAmount).toBe(1000);
    expect(await reserve(1)).toBe(false);
    await h.deps.store.tx((uow) => uow.refunds.releaseRefundable(p.id, 1500, h.deps.clock.nowMs()));
    expect((await stored(h, p.id)).refundedAmount).toBe(0);
    await forceStatus(h, p.id, "DISPUTE");
    expect(await reserve(1)).toBe(false);
    expect((await stored(h, p.id)).refundedAmount).toBe(0);
  });

  test("refuses a refund whose transaction was disputed after it was read with 400 charge_disputed, and changes nothing", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await paidPayment(h, a, 1000);
    const before = {
      balance: await getBalance(h.deps.store.read, a.accountId, false, "BRL"),
      stored: await stored(h, p.id),
    };
    betweenReadAndWrite(h, () => forceStatus(h, p.id, "DISPUTE"));
    const r = await h.call("POST", `/v1/payments/${p.id}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: key("refund"), amount: 300 },
    });
    expect([r.status, r.body.error.code]).toEqual([400, "charge_disputed"]);
    expect(await getBalance(h.deps.store.read, a.accountId, false, "BRL")).toEqual(before.balance);
    // The unit rolled back whole: nothing was reserved, stored or queued; on SQLite the forced status went with it.
    expect(await stored(h, p.id)).toEqual(before.stored);
    expect((await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey })).body.status).toBe(
      h.deps.store.kind === "sqlite" ? "PAID" : "DISPUTE",
    );
  });

  test("refuses a refund when another reserved the remainder after it was read with 400 refund_amount_exceeds_remaining, and changes nothing", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await paidPayment(h, a, 1000);
    const before = {
      balance: await getBalance(h.deps.store.read, a.accountId, false, "BRL"),
      stored: await stored(h, p.id),
    };
    betweenReadAndWrite(h, () =>
      testDb(h.deps).run("UPDATE transactions SET refunded_amount = 800 WHERE id = ?", p.id),
    );
    const r = await h.call("POST", `/v1/payments/${p.id}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: key("refund"), amount: 300 },
    });
    expect([r.status, r.body.error.code, r.body.error.param]).toEqual([
      400,
      "refund_amount_exceeds_remaining",
      "amount",
    ]);
    expect(await getBalance(h.deps.store.read, a.accountId, false, "BRL")).toEqual(before.balance);
    // The refund changed nothing; on PostgreSQL the other writer's committed 800 stays.
    expect(await stored(h, p.id)).toEqual({
      ...before.stored,
      refundedAmount: h.deps.store.kind === "sqlite" ? 0 : 800,
    });
    expect(before.stored).toEqual({ refundedAmount: 0, refunds: 0, jobs: 0 });
  });
});

describe("a refund's status moves with a conditional write", () => {
  test("moves only from the status it was read in: a refund moved meanwhile is left as it is", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await paidPayment(h, a, 1000);
    const r = await h.call("POST", `/v1/payments/${p.id}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: key("refund"), amount: 400 },
    });
    expect([r.status, r.body.status]).toEqual([201, "PENDING"]);
    const now = h.deps.clock.nowMs();
    const moved = await h.deps.store.tx((uow) =>
      uow.refunds.moveFrom(r.body.id, "PENDING", { status: "IN_PROGRESS", updatedAt: now }),
    );
    expect(moved).toMatchObject({ id: r.body.id, status: "IN_PROGRESS", amount: 400 });
    // A second mover that read PENDING too finds nothing to move and writes nothing.
    expect(
      await h.deps.store.tx((uow) =>
        uow.refunds.moveFrom(r.body.id, "PENDING", { status: "FAILED", updatedAt: now, failureReason: "late" }),
      ),
    ).toBeUndefined();
    expect(await h.deps.store.read.refunds.byId(r.body.id)).toMatchObject({
      status: "IN_PROGRESS",
      failureReason: null,
    });
    expect(
      await h.deps.store.tx((uow) =>
        uow.refunds.moveFrom("re_missing", "PENDING", { status: "FAILED", updatedAt: now }),
      ),
    ).toBeUndefined();
  });
});
