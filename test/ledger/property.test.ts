/** Property: any sequence of ledger operations keeps every entry balanced and every balance equal to its journal. */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { createHarness } from "../support/harness";
import { expectLedgerBalanced } from "../support/ledger";
import { DomainError } from "../../src/domain/errors";
import {
  creditChargePayment,
  debitRefund,
  getBalance,
  holdMed,
  restoreRefund,
  settleMedHold,
} from "../../src/domain/ledger";

const mode = fc.boolean();
const op = fc.oneof(
  fc.record({
    k: fc.constant("credit" as const),
    live: mode,
    amount: fc.integer({ min: 1, max: 100_000 }),
    feePct: fc.integer({ min: 0, max: 100 }),
  }),
  fc.record({ k: fc.constant("advance" as const), seconds: fc.integer({ min: 1, max: 2 * 86400 }) }),
  fc.record({
    k: fc.constant("refund" as const),
    live: mode,
    tx: fc.nat(20),
    amount: fc.integer({ min: 1, max: 100_000 }),
    fee: fc.integer({ min: 0, max: 300 }),
  }),
  fc.record({ k: fc.constant("restore" as const), refund: fc.nat(20) }),
  fc.record({ k: fc.constant("hold" as const), live: mode, amount: fc.integer({ min: 1, max: 50_000 }) }),
  fc.record({
    k: fc.constant("settle" as const),
    med: fc.nat(20),
    outcome: fc.constantFrom("refunded_to_merchant" as const, "closed_without_refund" as const, "lost" as const),
  }),
);

test("random operation sequences keep the journal balanced and merchant totals equal to the model", async () => {
  const h = createHarness();
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
      const acct = await h.seedAccount({ settings: { settlementDelaySeconds: 3600 * 7 } });
      const seen = {
        tx: [] as { id: string; live: boolean }[],
        refunds: [] as { id: string; live: boolean; total: number }[],
        meds: [] as { id: string; live: boolean; amount: number }[],
      };
      const restored = new Set<string>();
      const settled = new Set<string>();
      const model = { true: { total: 0, retained: 0 }, false: { total: 0, retained: 0 } };
      let n = 0;
      for (const o of ops) {
        const id = `${acct.accountId}_${n++}`;
        if (o.k === "credit") {
          const fee = Math.floor((o.amount * o.feePct) / 100);
          await h.deps.store.tx((uow) =>
            creditChargePayment(h.deps, uow, {
              accountId: acct.accountId,
              livemode: o.live,
              currency: "BRL",
              amount: o.amount,
              fee,
              transactionId: `tx_${id}`,
            }),
          );
          seen.tx.push({ id: `tx_${id}`, live: o.live });
          model[`${o.live}`].total += o.amount - fee;
        } else if (o.k === "advance") {
          h.clock.advance(o.seconds);
          await h.deps.jobs.drain();
        } else if (o.k === "refund") {
          const target = seen.tx[o.tx % Math.max(1, seen.tx.length)] ?? { id: "tx_none", live: o.live };
          try {
            await h.deps.store.tx((uow) =>
              debitRefund(h.deps, uow, {
                accountId: acct.accountId,
                livemode: target.live,
                currency: "BRL",
                amount: o.amount,
                refundId: `re_${id}`,
                transactionId: target.id,
                pixOutFee: o.fee,
              }),
            );
            seen.refunds.push({ id: `re_${id}`, live: target.live, total: o.amount + o.fee });
            model[`${target.live}`].total -= o.amount + o.fee;
          } catch (e) {
            if (!(e instanceof DomainError) || e.code !== "insufficient_balance") throw e;
          }
        } else if (o.k === "restore") {
          const r = seen.refunds[o.refund % Math.max(1, seen.refunds.length)];
          if (r) {
            await h.deps.store.tx((uow) => restoreRefund(h.deps, uow, { refundId: r.id }));
            if (!restored.has(r.id)) model[`${r.live}`].total += r.total;
            restored.add(r.id);
          }
        } else if (o.k === "hold") {
          await h.deps.store.tx((uow) =>
            holdMed(h.deps, uow, {
              accountId: acct.accountId,
              livemode: o.live,
              currency: "BRL",
              amount: o.amount,
              medCaseId: `med_${id}`,
            }),
          );
          seen.meds.push({ id: `med_${id}`, live: o.live, amount: o.amount });
          model[`${o.live}`].retained += o.amount;
        } else {
          const m = seen.meds[o.med % Math.max(1, seen.meds.length)];
          if (m) {
            await h.deps.store.tx((uow) => settleMedHold(h.deps, uow, { medCaseId: m.id, outcome: o.outcome }));
            if (!settled.has(m.id)) {
              model[`${m.live}`].retained -= m.amount;
              if (o.outcome !== "refunded_to_merchant") model[`${m.live}`].total -= m.amount;
            }
            settled.add(m.id);
          }
        }
        for (const live of [true, false]) {
          const b = await getBalance(h.deps.store.read, acct.accountId, live, "BRL");
          expect(b.pending).toBeGreaterThanOrEqual(0);
          expect(b.retained).toBe(model[`${live}`].retained);
          expect(b.available + b.pending + b.retained).toBe(model[`${live}`].total);
        }
      }
      await expectLedgerBalanced(h.deps);
    }),
    { numRuns: 60 },
  );
}, 60_000);
