/**
 * The sandbox provider's status table (src/providers/sandbox/index.ts header): each sandbox
 * status or event -> the outcome it yields, flow by flow; and the domain's side of the seam,
 * outcome -> settlement notice / refund status.
 */
import { describe, expect, test } from "bun:test";
import { hasError, parsePix } from "pix-utils";
import { loadConfig } from "../../src/config";
import { noticeOf } from "../../src/domain/charges/outcomes";
import { refundStatusOf } from "../../src/domain/refunds/jobs";
import { ManualClock } from "../../src/lib/clock";
import { DEVOLUTION_RE, E2E_RE, TXID_RE } from "../../src/pix/ids";
import { createSandboxProvider } from "../../src/providers/sandbox";
import { transactionRow } from "../payments/support";
import type {
  FaultMode,
  PaymentOutcome,
  ProviderContext,
  RefundRecord,
  SandboxPayerEvent,
  TransactionRow,
} from "../../src/domain/providers/types";

const NOW = "2026-11-20T12:00:00.000Z";
const T0 = Date.parse(NOW);

function setup(faults: FaultMode[] = [], publicUrl = "http://localhost:3000") {
  const taken: string[] = [];
  const provider = createSandboxProvider({
    faults: {
      take: (accountId) => {
        taken.push(accountId);
        return faults.shift() ?? null;
      },
    },
  });
  const ctx: ProviderContext = {
    config: { ...loadConfig({}), publicUrl },
    clock: new ManualClock(NOW),
    fetch: () => Promise.reject(new Error("the sandbox never calls out")),
  };
  return { provider, ctx, taken };
}

function row(over: Partial<TransactionRow> = {}): TransactionRow {
  return transactionRow({
    id: "0193a1b2c3d4e5f60718293a4b5c6d7e",
    accountId: "acct_1",
    livemode: false,
    amount: 1234,
    currency: "BRL",
    status: "WAITING_PAYMENT",
    paymentMethods: '["PIX"]',
    origin: "charges",
    expiresAt: T0 + 3600_000,
    ttlSeconds: 3600,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });
}

const merchant = { name: "Loja Teste", city: "SAO PAULO" };
const settings = {} as never;

describe("create", () => {
  test("a Pix charge is pending with a txid, a location on the public host and a BR Code for the amount", () => {
    const { provider, ctx, taken } = setup();
    const out = provider.create(ctx, { transaction: row(), methods: ["PIX"], settings, merchant });
    if (out instanceof Promise || out.status !== "pending")
      throw new Error(`expected pending, got ${JSON.stringify(out)}`);
    expect(Object.keys(out.columns!).sort()).toEqual(["expiresAt", "pixBrCode", "pixLocation", "pixTxid"]);
    expect(out.columns!.pixTxid).toMatch(TXID_RE);
    expect(out.columns!.pixLocation).toBe(`localhost:3000/v1/pix/loc/${out.columns!.pixTxid}`);
    expect(out.columns!.expiresAt).toBe(T0 + 3600_000);
    const decoded = parsePix(out.columns!.pixBrCode!) as any;
    expect(hasError(decoded)).toBe(false);
    expect([decoded.type, decoded.url, decoded.merchantName, decoded.merchantCity]).toEqual([
      "DYNAMIC",
      out.columns!.pixLocation,
      "Loja Teste",
      "SAO PAULO",
    ]);
    expect(out.details).toBeUndefined();
    expect(taken).toEqual(["acct_1"]);
  });

  test("a fault `unavailable` is a retryable failure and `reject` a rejection, one fault per creation whatever its methods", () => {
    const { provider, ctx, taken } = setup(["unavailable", "reject"]);
    const req = {
      transaction: row({ paymentMethods: '["PIX","BOLETO"]' }),
      methods: ["PIX", "BOLETO"] as const,
      settings,
      merchant,
    };
    expect(provider.create(ctx, req)).toEqual({
      status: "retryable",
      code: "sandbox_unavailable",
      message: "The sandbox provider is unreachable (provider fault).",
    });
    expect(provider.create(ctx, req)).toEqual({
      status: "rejected",
      code: "sandbox_rejected",
      message: "The sandbox provider rejected the charge (provider fault).",
    });
    const third = provider.create(ctx, req) as { status: string; details: Record<string, unknown> };
    expect(third.status).toBe("pending");
    expect(Object.keys(third.details)).toEqual(["BOLETO"]);
    expect(taken).toEqual(["acct_1", "acct_1", "acct_1"]);
  });

  test("a public URL that makes the Pix location longer than 77 characters is a rejection `location_too_long`", () => {
    const { provider, ctx } = setup([], `https://${"a".repeat(60)}.example.com`);
    const out = provider.create(ctx, { transaction: row(), methods: ["PIX"], settings, merchant });
    expect(out).toMatchObject({ status: "rejected", code: "location_too_long" });
  });

  test("several methods: each gets its details, and a transaction without PIX expires with its longest-lived method", () => {
    const { provider, ctx } = setup();
    const tx = row({
      paymentMethods: '["MBWAY","MULTIBANCO","CRYPTO","CREDIT_CARD"]',
      expiresAt: null,
      ttlSeconds: null,
      currency: "EUR",
    });
    const out = provider.create(ctx, {
      transaction: tx,
      methods: ["MBWAY", "MULTIBANCO", "CRYPTO", "CREDIT_CARD"],
      settings,
      merchant,
    }) as any;
    expect(out.status).toBe("pending");
    expect(Object.keys(out.details).sort()).toEqual(["CREDIT_CARD", "CRYPTO", "MBWAY", "MULTIBANCO"]);
    expect(out.columns).toEqual({ expiresAt: T0 + 3 * 86400_000 }); // Multibanco's 3 days beat MB WAY's 5 minutes and crypto's hour
    expect(tx.expiresAt).toBeNull(); // the caller's row is not touched
  });
});

describe("notifications (the sandbox payer)", () => {
  const pay = (over: Partial<Extract<SandboxPayerEvent, { kind: "pay" }>> = {}): SandboxPayerEvent => ({
    kind: "pay",
    method: "PIX",
    outcome: "succeed",
    amount: 1234,
    payerTaxId: "52998224725",
    payerName: "Fulano",
    disclosed: true,
    ...over,
  });
  const parse = (body: unknown, tx: TransactionRow | undefined = row()) => {
    const { provider, ctx } = setup();
    return provider.parseNotification(ctx, { body, transaction: tx });
  };
  const outcomeOf = (body: unknown, tx?: TransactionRow) => {
    const p = parse(body, tx);
    if (p.status !== "parsed") throw new Error(JSON.stringify(p));
    expect(p.items).toHaveLength(1);
    expect(p.items[0]!.ref).toEqual({ transactionId: (tx ?? row()).id });
    return p.items[0]!.outcome!;
  };

  test("a Pix payment is settled with a new end-to-end id and the payer as sent", () => {
    const o = outcomeOf(pay()) as Extract<PaymentOutcome, { status: "settled" }>;
    expect(o).toMatchObject({
      status: "settled",
      method: "PIX",
      amount: 1234,
      payerTaxId: "52998224725",
      payerName: "Fulano",
      disclosed: true,
    });
    expect(o.endToEndId).toMatch(E2E_RE);
    expect(o.endToEndId!.slice(9, 21)).toBe("202611201200");
  });

  test("a boleto payment is settled without an end-to-end id; a declined one is rejected `declined`", () => {
    expect(outcomeOf(pay({ method: "BOLETO", amount: 99 }))).toEqual({
      status: "settled",
      method: "BOLETO",
      amount: 99,
      endToEndId: undefined,
      payerTaxId: "52998224725",
      payerName: "Fulano",
      disclosed: true,
    });
    expect(outcomeOf(pay({ outcome: "decline" }))).toEqual({
      status: "rejected",
      method: "PIX",
      reason: "declined",
      code: "sandbox_declined",
      message: "The payer's bank declined the payment.",
    });
  });

  test("each test card maps to its outcome", () => {
    const table: [string, PaymentOutcome][] = [
      ["4242424242424242", { status: "settled", method: "CREDIT_CARD", amount: 1234 }],
      ["4242 4242 4242 4242", { status: "settled", method: "CREDIT_CARD", amount: 1234 }],
      ["5555555555554444", { status: "settled", method: "CREDIT_CARD", amount: 1234 }],
      [
        "4000000000000002",
        {
          status: "rejected",
          method: "CREDIT_CARD",
          reason: "card_declined",
          code: "sandbox_card_declined",
          message: "The card was declined.",
        },
      ],
      ["4000000000003220", { status: "pending", processing: true, checkAt: T0 + 3000, memo: { threeDs: "approve" } }],
      [
        "4000-0000-0000-3063",
        { status: "pending", processing: true, checkAt: T0 + 3000, memo: { threeDs: "decline" } },
      ],
    ];
    for (const [number, outcome] of table)
      expect([number, outcomeOf({ kind: "card", number })]).toEqual([number, outcome]);
  });

  test("a card number that is not Luhn-valid is invalid on `number`, and an unknown body or no transaction is invalid", () => {
    for (const number of ["4242424242424241", "1234", ""])
      expect(parse({ kind: "card", number })).toEqual({
        status: "invalid",
        param: "number",
        code: "invalid_card_number",
        message: "The card number is not valid (use one of the sandbox test cards).",
      });
    expect(parse({ pix: [] })).toMatchObject({ status: "invalid", code: "sandbox_bad_event" });
    expect(parse(null)).toMatchObject({ status: "invalid", code: "sandbox_bad_event" });
    const { provider, ctx } = setup();
    expect(provider.parseNotification(ctx, { body: pay() })).toMatchObject({
      status: "invalid",
      code: "sandbox_bad_event",
    });
  });
});

describe("status query", () => {
  test("the 3DS memo decides; without a memo nothing is new", () => {
    const { provider, ctx } = setup();
    const tx = row({ status: "PROCESSING" });
    expect(provider.queryStatus(ctx, { transaction: tx, memo: { threeDs: "approve" } })).toEqual({
      status: "settled",
      method: "CREDIT_CARD",
      amount: 1234,
    });
    expect(provider.queryStatus(ctx, { transaction: tx, memo: { threeDs: "decline" } })).toEqual({
      status: "rejected",
      method: "CREDIT_CARD",
      reason: "3ds_failed",
      code: "sandbox_3ds_failed",
      message: "The 3DS challenge failed.",
    });
    expect(provider.queryStatus(ctx, { transaction: tx })).toEqual({ status: "pending" });
  });

  test("cancel is always accepted", () => {
    const { provider, ctx } = setup();
    expect(provider.cancel(ctx, { transaction: row() })).toEqual({ status: "settled" });
  });
});

describe("refunds", () => {
  const refund = (status: string): RefundRecord =>
    ({ id: "re_1", status, transactionId: row().id, amount: 100, method: "PIX" }) as RefundRecord;

  test("Pix and card refunds are planned 2 s ahead; Pix defaults to cashout and a devolution gets a D id", () => {
    const { provider, ctx } = setup();
    const plan = (method: "PIX" | "CREDIT_CARD", strategy?: "devolution" | "cashout") =>
      provider.planRefund(ctx, { transaction: row(), refundId: "re_1", method, strategy });
    expect(plan("PIX")).toEqual({ status: "pending", checkAt: T0 + 2000, strategy: "cashout", providerRefundId: null });
    expect(plan("PIX", "cashout")).toEqual({
      status: "pending",
      checkAt: T0 + 2000,
      strategy: "cashout",
      providerRefundId: null,
    });
    const dev = plan("PIX", "devolution") as { strategy: string; providerRefundId: string };
    expect(dev.strategy).toBe("devolution");
    expect(dev.providerRefundId).toMatch(DEVOLUTION_RE);
    expect(plan("CREDIT_CARD")).toEqual({
      status: "pending",
      checkAt: T0 + 2000,
      strategy: null,
      providerRefundId: null,
    });
  });

  test("other methods are not supported", () => {
    const { provider, ctx } = setup();
    for (const method of ["MBWAY", "MULTIBANCO", "BOLETO", "CRYPTO"] as const)
      expect(provider.planRefund(ctx, { transaction: row(), refundId: "re_1", method })).toEqual({
        status: "not_supported",
        code: "refund_not_supported",
        message: `Refunds are not supported for ${method} payments.`,
      });
  });

  test("a submitted refund is in progress for 2 s, then refunded", () => {
    const { provider, ctx } = setup();
    const req = (status: string) => ({ refund: refund(status), transaction: row({ status: "PAID" }) });
    expect(provider.refund(ctx, req("PENDING"))).toEqual({ status: "pending", inProgress: true, checkAt: T0 + 2000 });
    expect(provider.refundStatus(ctx, req("PENDING"))).toEqual({
      status: "pending",
      inProgress: true,
      checkAt: T0 + 2000,
    });
    expect(provider.refundStatus(ctx, req("IN_PROGRESS"))).toEqual({ status: "settled" });
  });
});

describe("the domain's side: outcome -> status", () => {
  const tx = row();
  test("payment outcomes become settlement notices; pending and failures that are not refusals change nothing", () => {
    expect(
      noticeOf(tx, "PIX", {
        status: "settled",
        method: "PIX",
        amount: 5,
        endToEndId: "E1",
        payerTaxId: null,
        disclosed: false,
      }),
    ).toEqual({
      transactionId: tx.id,
      kind: "paid",
      method: "PIX",
      amount: 5,
      endToEndId: "E1",
      payerTaxId: null,
      disclosed: false,
    });
    expect(noticeOf(tx, "CREDIT_CARD", { status: "pending", processing: true })).toEqual({
      transactionId: tx.id,
      kind: "processing",
      method: "CREDIT_CARD",
    });
    expect(noticeOf(tx, "PIX", { status: "pending", checkAt: 1 })).toBeNull();
    expect(noticeOf(tx, "PIX", { status: "expired" })).toEqual({ transactionId: tx.id, kind: "expired" });
    expect(noticeOf(tx, "CREDIT_CARD", { status: "rejected", code: "x", message: "m" })).toEqual({
      transactionId: tx.id,
      kind: "declined",
      method: "CREDIT_CARD",
      reason: "declined",
      providerErrorCode: "x",
    });
    for (const status of ["retryable", "auth_failed", "not_supported", "invalid"] as const)
      expect(noticeOf(tx, "PIX", { status, code: "c", message: "m" })).toBeNull();
  });

  test("refund outcomes become refund statuses; failures to retry say nothing", () => {
    expect(refundStatusOf({ status: "settled" })).toBe("REFUNDED");
    expect(refundStatusOf({ status: "pending", inProgress: false })).toBe("PENDING");
    expect(refundStatusOf({ status: "pending", inProgress: true, checkAt: 1 })).toBe("IN_PROGRESS");
    expect(refundStatusOf({ status: "rejected", code: "NAO_REALIZADO", message: "m" })).toBe("FAILED");
    for (const status of ["retryable", "auth_failed", "not_supported", "invalid"] as const)
      expect(refundStatusOf({ status, code: "c", message: "m" })).toBeNull();
  });
});
