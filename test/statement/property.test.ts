/**
 * The period-sum property of the statement (extensions.md "Statement, exports and
 * reconciliation": "The lines of any period add up to the change of `total` over that period"),
 * over random operations on either backend: charges with fees (released after a delay), refunds
 * and their failures, payouts paid or reversed, MED holds released or lost, spread over days.
 * The oracle is GET /v1/wallets/balance read at the end of every São Paulo day.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { saoPauloDate, addDays } from "../../src/lib/calendar";
import { DomainError } from "../../src/domain/errors";
import { createHarness } from "../support/harness";
import {
  allLines,
  charge,
  endHold,
  endPayout,
  failRefund,
  hold,
  payoutPosted,
  refund,
  total,
  type Wallet,
} from "./support";

type Op =
  | { k: "charge"; amount: number; fee: number }
  | { k: "refund"; pick: number; amount: number; fee: number }
  | { k: "failRefund"; pick: number }
  | { k: "payout"; amount: number; fee: number }
  | { k: "endPayout"; pick: number; paid: boolean }
  | { k: "hold"; amount: number }
  | { k: "endHold"; pick: number; released: boolean };

const amount = fc.integer({ min: 1, max: 50_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ k: fc.constant("charge" as const), amount, fee: fc.integer({ min: 0, max: 500 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant("refund" as const),
      pick: fc.nat(),
      amount,
      fee: fc.integer({ min: 0, max: 100 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("failRefund" as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ k: fc.constant("payout" as const), amount, fee: fc.integer({ min: 0, max: 300 }) }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant("endPayout" as const), pick: fc.nat(), paid: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("hold" as const), amount }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("endHold" as const), pick: fc.nat(), released: fc.boolean() }) },
);
/** Each step: an operation after a pause of 1 minute to 30 hours. */
const steps = fc.array(fc.tuple(op, fc.integer({ min: 60, max: 30 * 3_600 })), { minLength: 1, maxLength: 25 });

const take = <T>(list: T[], pick: number): T | undefined =>
  list.length ? list.splice(pick % list.length, 1)[0] : undefined;

/** Runs `body`, ignoring a refused debit (insufficient balance): the operation then did nothing. */
async function unlessRefused(body: () => Promise<unknown>): Promise<unknown> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof DomainError && e.code === "insufficient_balance") return undefined;
    throw e;
  }
}

describe("statement period sums", () => {
  test("the lines of any period add up to the change of the wallet's total over that period", async () => {
    await fc.assert(
      fc.asyncProperty(
        steps,
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }),
        async (plan, periods) => {
          const h = createHarness();
          const a = await h.seedAccount({ settings: { settlementDelaySeconds: 6 * 3_600 } });
          const w: Wallet = { h, a };
          const charges: string[] = [];
          const refunds: string[] = [];
          const payouts: string[] = [];
          const holds: string[] = [];
          const first = saoPauloDate(h.clock.nowMs());
          /** Total at the end of each São Paulo day that saw an operation (the oracle). */
          const endOfDay = new Map<string, number>();
          for (const [o, pause] of plan) {
            if (o.k === "charge") charges.push(await charge(w, o.amount, Math.min(o.fee, o.amount)));
            else if (o.k === "refund") {
              const tx = charges.length ? charges[o.pick % charges.length]! : undefined;
              const re = tx && (await unlessRefused(() => refund(w, tx, o.amount, o.fee)));
              if (re) refunds.push(re as string);
            } else if (o.k === "failRefund") {
              const re = take(refunds, o.pick);
              if (re) await failRefund(w, re);
            } else if (o.k === "payout") {
              const po = await unlessRefused(() => payoutPosted(w, o.amount, o.fee));
              if (po) payouts.push(po as string);
            } else if (o.k === "endPayout") {
              const po = take(payouts, o.pick);
              if (po) await endPayout(w, po, o.paid ? "paid" : "reversed");
            } else if (o.k === "hold") holds.push(await hold(w, o.amount));
            else {
              const med = take(holds, o.pick);
              if (med) await endHold(w, med, o.released ? "refunded_to_merchant" : "lost");
            }
            endOfDay.set(saoPauloDate(h.clock.nowMs()), await total(h, a.testKey));
            h.clock.advance(pause);
            await h.deps.jobs.drain(); // tranche releases: no line, no change of total
          }
          const last = saoPauloDate(h.clock.nowMs());
          const days: string[] = [];
          for (let d = addDays(first, -1); d <= last; d = addDays(d, 1)) days.push(d);
          /** Total at the end of `day`: that of the latest day with an operation at or before it. */
          const totalAt = (day: string) => {
            let t = 0;
            for (const d of days) if (d <= day && endOfDay.has(d)) t = endOfDay.get(d)!;
            return t;
          };
          for (const [i, j] of periods) {
            const from = days[1 + (i % (days.length - 1))]!;
            const to = days[1 + (j % (days.length - 1))]!;
            if (from > to) continue;
            const lines = await allLines(h, a.testKey, `from=${from}&to=${to}`);
            const sum = lines.reduce((s, l) => s + l.amount, 0);
            expect([from, to, sum]).toEqual([from, to, totalAt(to) - totalAt(addDays(from, -1))]);
            if (lines.length) expect(lines[0].balance_after).toBe(totalAt(to));
          }
          // The whole statement: it sums to the total, and each line's balance follows the one below it.
          const all = await allLines(h, a.testKey);
          expect(all.reduce((s, l) => s + l.amount, 0)).toBe(await total(h, a.testKey));
          for (let k = 0; k + 1 < all.length; k++)
            expect(all[k].balance_after - all[k].amount).toBe(all[k + 1].balance_after);
        },
      ),
      { numRuns: process.env.COFRE_TEST_PG ? 10 : 25 },
    );
  }, 120_000);
});
