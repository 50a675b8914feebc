/**
 * The transaction state machine (src/domain/charges/model.ts, issue 25 §1): the table allows
 * exactly the transitions of interface.md "States and transitions" plus the platform's own
 * (payer lock, amount mismatch, MED), final statuses have no exit, the status groups are the
 * ones the rest of the code relies on, the events column is what a change sends, and the one
 * write (`moveTransaction`) refuses what the table refuses and writes only from the status read.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ALIVE,
  CANCELLABLE,
  canTransition,
  DISPUTABLE,
  DISPUTED,
  eventsOf,
  FINAL,
  IN_FLIGHT,
  OVER,
  RECEIPTABLE,
  REFUNDABLE,
  SETTLED,
  TRANSACTION_STATUSES,
  TRANSACTION_TRANSITIONS,
  TRANSACTION_TRIGGERS,
  WAITING,
} from "../../src/domain/charges/model";
import { transitionEvents } from "../../src/domain/charges/events";
import { moveTransaction } from "../../src/domain/charges/transition";
import { createHarness } from "../support/harness";
import { createPayment, transactionRow } from "../payments/support";

const ROOT = join(import.meta.dir, "..", "..");

/** Every (from, trigger, to) the table allows, written out by hand: a change to the table must change this list. */
const ALLOWED = [
  "(none) -create-> WAITING_PAYMENT",
  "WAITING_PAYMENT -reject-> REFUSED",
  "PENDING -processing-> PROCESSING",
  "WAITING_PAYMENT -processing-> PROCESSING",
  "PENDING -hold-> PROCESSING",
  "WAITING_PAYMENT -hold-> PROCESSING",
  "PENDING -settle-> PAID",
  "WAITING_PAYMENT -settle-> PAID",
  "PROCESSING -settle-> PAID",
  "PENDING -settle-> APPROVED",
  "WAITING_PAYMENT -settle-> APPROVED",
  "PROCESSING -settle-> APPROVED",
  "PENDING -decline-> REFUSED",
  "WAITING_PAYMENT -decline-> REFUSED",
  "PROCESSING -decline-> REFUSED",
  "PENDING -amount_mismatch-> REFUSED",
  "WAITING_PAYMENT -amount_mismatch-> REFUSED",
  "PENDING -payer_mismatch-> REFUNDED",
  "WAITING_PAYMENT -payer_mismatch-> REFUNDED",
  "PENDING -expire-> EXPIRED",
  "WAITING_PAYMENT -expire-> EXPIRED",
  "PENDING -cancel-> CANCELLED",
  "WAITING_PAYMENT -cancel-> CANCELLED",
  "PROCESSING -cancel-> CANCELLED",
  "PAID -refund-> REFUNDED",
  "APPROVED -refund-> REFUNDED",
  "PAID -dispute-> DISPUTE",
  "APPROVED -dispute-> DISPUTE",
  "PAID -chargeback-> CHARGEBACK",
  "APPROVED -chargeback-> CHARGEBACK",
  "DISPUTE -chargeback-> CHARGEBACK",
  "DISPUTE -dispute_won-> PAID",
  "CHARGEBACK -dispute_won-> PAID",
  "DISPUTE -dispute_won-> APPROVED",
  "CHARGEBACK -dispute_won-> APPROVED",
].sort();

/** Every (from, trigger, to) of all statuses (and "none yet") x triggers x statuses that canTransition allows. */
function allowedByTable(): string[] {
  const out: string[] = [];
  for (const from of [null, ...TRANSACTION_STATUSES])
    for (const trigger of TRANSACTION_TRIGGERS)
      for (const to of TRANSACTION_STATUSES)
        if (canTransition(from, trigger, to)) out.push(`${from ?? "(none)"} -${trigger}-> ${to}`);
  return out.sort();
}

/** Statuses no other vocabulary of the house uses (refunds, deliveries and payouts share the others). */
const TRANSACTION_ONLY = new Set([
  "WAITING_PAYMENT",
  "PAID",
  "APPROVED",
  "REFUSED",
  "EXPIRED",
  "CHARGEBACK",
  "DISPUTE",
]);
const isStatus = (s: string) => (TRANSACTION_STATUSES as readonly string[]).includes(s);

describe("the transaction state machine", () => {
  test("allows every transition it lists and refuses everything else", () => {
    for (const t of TRANSACTION_TRANSITIONS)
      for (const from of t.from) expect(canTransition(from, t.trigger, t.to)).toBe(true);
    expect(allowedByTable()).toEqual(ALLOWED);
    // Unknown stored values move nowhere.
    expect(canTransition("SOMETHING", "cancel", "CANCELLED")).toBe(false);
    expect(canTransition("WAITING_PAYMENT", "cancel", "SOMETHING")).toBe(false);
  });

  test("final statuses have no exit, and every other status has one", () => {
    for (const s of TRANSACTION_STATUSES) {
      const exits = TRANSACTION_TRANSITIONS.filter((t) => (t.from as readonly (string | null)[]).includes(s));
      if ((FINAL as readonly string[]).includes(s)) expect([s, exits.length]).toEqual([s, 0]);
      else expect(exits.length).toBeGreaterThan(0);
    }
    expect([...FINAL].sort()).toEqual(["CANCELLED", "EXPIRED", "REFUNDED", "REFUSED"]);
  });

  test("every status can be reached, and every trigger is used", () => {
    const reached = new Set<string>(["WAITING_PAYMENT"]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const t of TRANSACTION_TRANSITIONS)
        if (t.from.some((f) => f !== null && reached.has(f)) && !reached.has(t.to))
          grew = reached.add(t.to) !== undefined;
    }
    // PENDING is internal ("being created"): nothing moves a transaction into it.
    expect([...TRANSACTION_STATUSES].filter((s) => !reached.has(s))).toEqual(["PENDING"]);
    expect([...new Set(TRANSACTION_TRANSITIONS.map((t) => t.trigger))].sort()).toEqual(
      [...TRANSACTION_TRIGGERS].sort(),
    );
  });

  test("the status groups hold the statuses the code relies on", () => {
    expect(WAITING).toEqual(["PENDING", "WAITING_PAYMENT"]);
    expect(IN_FLIGHT).toEqual(["PENDING", "WAITING_PAYMENT", "PROCESSING"]);
    expect(CANCELLABLE).toEqual(IN_FLIGHT);
    expect(SETTLED).toEqual(["PAID", "APPROVED"]);
    expect(REFUNDABLE).toEqual(SETTLED);
    expect(DISPUTABLE).toEqual(SETTLED);
    expect(DISPUTED).toEqual(["DISPUTE", "CHARGEBACK"]);
    expect(ALIVE).toEqual(["PENDING", "WAITING_PAYMENT", "PROCESSING", "PAID", "APPROVED"]);
    expect(OVER).toEqual(["EXPIRED", "CANCELLED", "REFUSED"]);
    expect([...RECEIPTABLE].sort()).toEqual(["APPROVED", "CANCELLED", "EXPIRED", "PAID", "REFUNDED", "REFUSED"]);
    // The cancel, refund and dispute rows start exactly from their groups (interface.md transitions).
    const fromOf = (trigger: string) =>
      TRANSACTION_TRANSITIONS.filter((t) => t.trigger === trigger).flatMap((t) => t.from);
    expect([...new Set(fromOf("cancel"))]).toEqual([...CANCELLABLE]);
    expect([...new Set(fromOf("refund"))]).toEqual([...REFUNDABLE]);
    expect([...new Set(fromOf("dispute"))]).toEqual([...DISPUTABLE]);
  });

  test("the events column is what a change sends (canonical charge.* only with a charge view)", () => {
    expect(eventsOf(null, "WAITING_PAYMENT")).toEqual(["charge.created", "payment.created"]);
    expect(eventsOf("WAITING_PAYMENT", "PAID")).toEqual(["charge.paid", "payment.completed"]);
    expect(eventsOf("PROCESSING", "APPROVED")).toEqual(["charge.paid", "payment.completed"]);
    expect(eventsOf("WAITING_PAYMENT", "CANCELLED")).toEqual(["charge.failed", "payment.failed"]);
    expect(eventsOf("WAITING_PAYMENT", "EXPIRED")).toEqual(["charge.expired", "payment.failed", "payment.expired"]);
    expect(eventsOf("PAID", "DISPUTE")).toEqual(["payment.failed"]);
    expect(eventsOf("DISPUTE", "PAID")).toEqual(["payment.status_changed"]);
    expect(eventsOf("PAID", "REFUNDED")).toEqual(["payment.status_changed"]);
    expect(eventsOf("WAITING_PAYMENT", "PROCESSING")).toEqual(["payment.status_changed"]);
    expect(eventsOf("PAID", "PAID")).toEqual([]);
    // A resend guessing a previous status no row lists: the events of the usual way in.
    expect(eventsOf("REFUNDED", "PAID")).toEqual(["charge.paid", "payment.completed"]);
    expect(eventsOf("PROCESSING", "EXPIRED")).toEqual(["charge.expired", "payment.failed", "payment.expired"]);
    expect(eventsOf("PAID", "WAITING_PAYMENT")).toEqual(["payment.status_changed"]);

    const base = {
      id: "t1",
      accountId: "acct_1",
      livemode: false,
      amount: 1000,
      currency: "BRL",
      status: "PAID",
    } as const;
    const pix = transactionRow({ ...base, paymentMethods: JSON.stringify(["PIX"]) } as never);
    const card = transactionRow({ ...base, paymentMethods: JSON.stringify(["CREDIT_CARD"]) } as never);
    expect(transitionEvents(pix, "WAITING_PAYMENT")).toEqual([
      { family: "canonical", type: "charge.paid" },
      { family: "legacy", type: "payment.completed" },
    ]);
    expect(transitionEvents(card, "WAITING_PAYMENT")).toEqual([{ family: "legacy", type: "payment.completed" }]);
  });

  test("the storage adapters and the expiry index spell the WAITING group", () => {
    const spelt = `status} in (${WAITING.map((s) => `'${s}'`).join(", ")})`;
    expect(readFileSync(join(ROOT, "db/schema/charges.ts"), "utf8")).toContain(spelt);
    const inSql = `status in (${WAITING.map((s) => `'${s}'`).join(", ")})`;
    expect(readFileSync(join(ROOT, "src/store/sqlite/charges.ts"), "utf8")).toContain(inSql);
    expect(readFileSync(join(ROOT, "src/store/pg/charges.ts"), "utf8")).toContain(inSql);
  });

  test("no other file writes a transaction status or keeps its own copy of a status group", () => {
    const files: string[] = [];
    for (const e of readdirSync(join(ROOT, "src"), { withFileTypes: true, recursive: true }))
      if (e.isFile() && /\.tsx?$/.test(e.name)) files.push(join(e.parentPath, e.name).slice(ROOT.length + 1));
    const offenders: string[] = [];
    for (const f of files) {
      const code = readFileSync(join(ROOT, f), "utf8");
      // The conditional write is called only by moveTransaction.
      if (f !== "src/domain/charges/transition.ts" && /charges\.transition\(/.test(code))
        offenders.push(`${f}: charges.transition`);
      // An unconditional update never carries a status.
      for (const m of code.matchAll(/charges\.update\([^;]*?;/gs))
        if (/\bstatus\b/.test(m[0])) offenders.push(`${f}: charges.update with a status`);
      // A list of two or more transaction statuses outside the model: every item a transaction status,
      // one at least of a transaction only (other vocabularies share PENDING, PROCESSING, CANCELLED, REFUNDED).
      if (f === "src/domain/charges/model.ts") continue;
      for (const m of code.matchAll(/\[\s*((?:"[A-Z_]+",?\s*){2,})\]/g)) {
        const items = [...m[1]!.matchAll(/"([A-Z_]+)"/g)].map((x) => x[1]!);
        if (items.every((i) => isStatus(i)) && items.some((i) => TRANSACTION_ONLY.has(i)))
          offenders.push(`${f}: a status list ${items.join(",")}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe("moveTransaction", () => {
  test("moves a transaction the table allows, from the status it read", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    const moved = await h.deps.store.tx(async (uow) => {
      const row = (await uow.charges.lockForChange(p.id))!;
      return moveTransaction(uow, row, "cancel", "CANCELLED", { updatedAt: 5 });
    });
    expect([moved?.status, moved?.updatedAt]).toEqual(["CANCELLED", 5]);
  });

  test("refuses a move the table does not list and writes nothing", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    const attempt = h.deps.store.tx(async (uow) => {
      const row = (await uow.charges.lockForChange(p.id))!;
      return moveTransaction(uow, row, "refund", "REFUNDED");
    });
    expect(attempt).rejects.toThrow('the transaction state machine has no "refund" from WAITING_PAYMENT to REFUNDED');
    await attempt.catch(() => {});
    expect((await h.deps.store.read.charges.byId(p.id))!.status).toBe("WAITING_PAYMENT");
  });

  test("writes nothing when the status moved after it was read", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    const stale = (await h.deps.store.read.charges.byId(p.id))!;
    await h.call("POST", `/v1/test_helpers/charges/${p.id}/pay`, { key: a.testKey });
    const moved = await h.deps.store.tx((uow) => moveTransaction(uow, stale, "cancel", "CANCELLED"));
    expect(moved).toBeUndefined();
    expect((await h.deps.store.read.charges.byId(p.id))!.status).toBe("PAID");
  });
});
