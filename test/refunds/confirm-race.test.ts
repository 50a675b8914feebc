/**
 * Two refunds that together refund a charge in full, confirmed at the same moment (two units at
 * once: on PostgreSQL two connections; on SQLite the second unit waits for the first): the charge
 * ends REFUNDED, whichever commits last (src/domain/refunds/service.ts confirmRefund locks the
 * charge before it sums the confirmed refunds).
 */
import { expect, test } from "bun:test";
import { applyRefundStatus } from "../../src/domain/refunds/service";
import { createHarness } from "../support/harness";
import { key, paidPayment } from "../payments/support";

test("two partial refunds confirmed at once leave the fully refunded charge REFUNDED", async () => {
  const h = createHarness();
  const a = await h.seedAccount();
  const p = await paidPayment(h, a, 1000);
  const ids: string[] = [];
  for (const amount of [400, 600]) {
    const r = await h.call("POST", `/v1/payments/${p.id}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: key("race"), amount },
    });
    expect(r.status).toBe(201);
    ids.push(r.body.id);
  }
  let moved!: () => void;
  const firstMoved = new Promise<void>((r) => (moved = r));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  // The first confirmation has summed and written, and stays uncommitted while the second runs.
  const first = h.deps.store.tx(async (uow) => {
    await applyRefundStatus(h.deps, uow, ids[0]!, "REFUNDED");
    moved();
    await held;
  });
  await firstMoved;
  const second = h.deps.store.tx((uow) => applyRefundStatus(h.deps, uow, ids[1]!, "REFUNDED"));
  // Time for the second unit to reach its read of the charge (on PostgreSQL it waits there for the lock).
  await Bun.sleep(100);
  release();
  await first;
  await second;
  const after = await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey });
  expect([after.status, after.body.status]).toEqual([200, "REFUNDED"]);
  const refunds = (await h.call("GET", `/v1/payments/${p.id}/refunds`, { key: a.testKey })).body.data;
  expect(refunds.map((r: { status: string }) => r.status)).toEqual(["REFUNDED", "REFUNDED"]);
});
