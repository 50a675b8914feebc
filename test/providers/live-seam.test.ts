/**
 * A live adapter fits the seam: a scripted PaymentProvider serving PIX for one account's live
 * mode (as the `bcb_pix_v2` connection will) goes through every domain flow the sandbox uses -
 * create, status check, refund plan, submit and status - and each outcome reaches the database
 * through applySettlementNotice / applyRefundStatus, with the user-visible results of the contract.
 */
import { describe, expect, test } from "bun:test";
import { sandboxFaultStore } from "../../src/domain/charges/faults";
import { acceptNotification } from "../../src/domain/charges/notifications";
import { recordPaymentOutcome } from "../../src/domain/charges/outcomes";
import { getBalance } from "../../src/domain/ledger";
import { buildDynamicBrCode } from "../../src/pix/brcode";
import { ProviderRegistry } from "../../src/domain/providers/registry";
import { createSandboxProvider } from "../../src/providers/sandbox";
import type {
  CancelOutcome,
  CreateOutcome,
  PaymentOutcome,
  PaymentProvider,
  RefundOutcome,
  RefundPlan,
} from "../../src/domain/providers/types";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { eventTypes, key } from "../payments/support";

const TXID = "Cofre0000000000000000000001";

/** A live PIX provider whose answers the test scripts; records every call. */
function scripted() {
  const calls: string[] = [];
  const script = {
    create: (): CreateOutcome => ({ status: "pending", columns: {} }),
    query: (): PaymentOutcome => ({ status: "pending" }),
    refund: (): RefundOutcome => ({ status: "pending", inProgress: true }),
    refundStatus: (): RefundOutcome => ({ status: "settled" }),
    cancel: (): CancelOutcome => ({ status: "settled" }),
  };
  const provider: PaymentProvider = {
    name: "scripted_live",
    methods: new Set(["PIX"]),
    async create(_ctx, req) {
      calls.push(`create ${req.methods.join(",")} ${req.transaction.amount}`);
      const out = script.create();
      if (out.status !== "pending") return out;
      const location = `psp.example.com/qr/v2/${TXID}`;
      const pixBrCode = buildDynamicBrCode({
        location,
        merchantName: req.merchant.name,
        merchantCity: req.merchant.city,
        amount: req.transaction.amount,
      });
      return {
        status: "pending",
        columns: { pixTxid: TXID, pixLocation: location, pixBrCode, expiresAt: req.transaction.expiresAt },
      };
    },
    async queryStatus(_ctx, req) {
      calls.push(`query ${req.transaction.pixTxid} ${JSON.stringify(req.memo ?? null)}`);
      return script.query();
    },
    // The standard's callback `{pix: [{endToEndId, txid, valor, horario}]}`: hints only.
    parseNotification(_ctx, req) {
      const pix = (req.body as { pix?: { txid?: string; endToEndId?: string }[] } | null)?.pix;
      if (!Array.isArray(pix))
        return { status: "invalid", code: "bad_callback", message: "The callback body has no pix list." };
      return { status: "parsed", items: pix.map((p) => ({ ref: { txid: p.txid, endToEndId: p.endToEndId } })) };
    },
    planRefund(ctx, req): RefundPlan {
      calls.push(`plan ${req.strategy ?? "-"}`);
      if (req.strategy === "cashout" || req.destinationKey !== undefined)
        return {
          status: "not_supported",
          code: "cashout_not_in_standard",
          message: "The BCB API Pix has no payment initiation: only a devolution can refund.",
        };
      return { status: "pending", checkAt: ctx.clock.nowMs(), strategy: "devolution", providerRefundId: null };
    },
    async refund(_ctx, req) {
      calls.push(`refund ${req.refund.amount} ${req.refund.status}`);
      return script.refund();
    },
    async refundStatus(_ctx, req) {
      calls.push(`refundStatus ${req.refund.status}`);
      return script.refundStatus();
    },
    async cancel(_ctx, req) {
      calls.push(`cancel ${req.transaction.pixTxid}`);
      return script.cancel();
    },
  };
  return { provider, calls, script };
}

async function setup(): Promise<{ h: Harness; a: SeededAccount; b: SeededAccount } & ReturnType<typeof scripted>> {
  const h = createHarness();
  h.subscribeAllEvents = true;
  const a = await h.seedAccount();
  const b = await h.seedAccount();
  const s = scripted();
  h.deps.providers = new ProviderRegistry({
    config: h.deps.config,
    clock: h.clock,
    sandbox: createSandboxProvider({ faults: sandboxFaultStore(() => h.deps.store) }),
    live: (accountId, method) => (accountId === a.accountId && method === "PIX" ? s.provider : undefined),
  });
  return { h, a, b, ...s };
}

const liveCharge = (h: Harness, apiKey: string, amount = 2500) =>
  h.call("POST", "/v1/pix/charges", { key: apiKey, body: { amount }, headers: { "Idempotency-Key": key("live") } });

describe("creating live charges through the account's provider", () => {
  test("a live key creates a pending charge carrying the provider's txid and BR Code; an account without a connection still gets 422", async () => {
    const { h, a, b, calls } = await setup();
    const r = await liveCharge(h, a.liveKey);
    expect(r.status).toBe(201);
    expect(r.body.status).toBe("pending");
    expect((await h.call("GET", `/v1/charges/${r.body.id}`, { key: a.testKey })).status).toBe(404); // a live charge
    expect(r.body.pix.txid).toBe(TXID);
    expect(r.body.pix.br_code).toContain(`psp.example.com/qr/v2/${TXID}`);
    expect(calls).toEqual(["create PIX 2500"]);
    const other = await liveCharge(h, b.liveKey);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe("unprocessable_entity");
    // test keys still meet the sandbox
    expect((await liveCharge(h, a.testKey)).body.pix.txid).not.toBe(TXID);
  });

  test("retryable and auth failures answer 503 and store nothing; not supported answers 422", async () => {
    const { h, a, script } = await setup();
    for (const status of ["retryable", "auth_failed"] as const) {
      script.create = () => ({ status, code: "psp_down", message: "down" });
      const r = await liveCharge(h, a.liveKey);
      expect([status, r.status, r.body.error.code]).toEqual([status, 503, "service_unavailable"]);
    }
    script.create = () => ({ status: "not_supported", code: "no_cob", message: "This PSP does not issue cob." });
    const ns = await liveCharge(h, a.liveKey);
    expect([ns.status, ns.body.error.code, ns.body.error.message]).toEqual([
      422,
      "unprocessable_entity",
      "This PSP does not issue cob.",
    ]);
    expect((await h.call("GET", "/v1/charges", { key: a.liveKey })).body.data).toEqual([]);
  });

  test("a rejected create is stored failed with the provider's error code", async () => {
    const { h, a, script } = await setup();
    script.create = () => ({ status: "rejected", code: "InvalidKey", message: "chave not registered" });
    const r = await liveCharge(h, a.liveKey);
    expect(r.status).toBe(201);
    expect(r.body.status).toBe("failed");
    expect(r.body.pix).toBeNull();
    expect(r.body.metadata.failure).toEqual({
      reason: "provider_rejected",
      providerErrorCode: "InvalidKey",
      at: "2026-11-20T12:00:00.000Z",
    });
  });
});

describe("status checks and refunds through the provider", () => {
  /** A live charge of 2500 confirmed paid by a status check; returns its raw id. */
  async function paidLive(ctx: Awaited<ReturnType<typeof setup>>): Promise<string> {
    const { h, a, script, calls } = ctx;
    const id = (await liveCharge(h, a.liveKey)).body.id.slice(3);
    // a hint said "check again in 10 s" (what a callback or a poll will do)
    await recordPaymentOutcome(h.deps, (await h.deps.store.read.charges.byId(id))!, "PIX", {
      status: "pending",
      checkAt: h.clock.nowMs() + 10_000,
      memo: { hint: "callback" },
    });
    script.query = () => ({
      status: "settled",
      method: "PIX",
      amount: 2500,
      endToEndId: "E12345678202611201200abcdefghijk",
    });
    h.clock.advance(9);
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/charges/${id}`, { key: a.liveKey })).body.status).toBe("pending");
    h.clock.advance(1);
    await h.deps.jobs.drain();
    expect(calls.at(-1)).toBe(`query ${TXID} {"hint":"callback"}`);
    return id;
  }

  test("a status check that finds the payment settles the charge and credits the live balance only", async () => {
    const ctx = await setup();
    const { h, a } = ctx;
    const id = await paidLive(ctx);
    const g = await h.call("GET", `/v1/charges/${id}`, { key: a.liveKey });
    expect(g.body.status).toBe("paid");
    expect(g.body.end_to_end_id ?? (await h.deps.store.read.charges.byId(id))!.endToEndId).toBe(
      "E12345678202611201200abcdefghijk",
    );
    expect(await getBalance(h.deps.store.read, a.accountId, true, "BRL")).toMatchObject({ pending: 2500 });
    expect(await getBalance(h.deps.store.read, a.accountId, false, "BRL")).toMatchObject({ available: 0, pending: 0 });
    expect(await eventTypes(h, id)).toContain("charge.paid");
  });

  test("a cashout the provider cannot make is 400 REFUND_NOT_SUPPORTED and changes nothing", async () => {
    const ctx = await setup();
    const { h, a } = ctx;
    const id = await paidLive(ctx);
    const before = await getBalance(h.deps.store.read, a.accountId, true, "BRL");
    const r = await h.call("POST", `/v1/payments/${id}/refund`, {
      key: a.liveKey,
      body: { idempotencyKey: key(), strategy: "cashout" },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("REFUND_NOT_SUPPORTED");
    expect(r.body.error.message).toContain("only a devolution");
    expect(await getBalance(h.deps.store.read, a.accountId, true, "BRL")).toEqual(before);
    expect((await h.call("GET", `/v1/payments/${id}/refunds`, { key: a.liveKey })).body.data).toEqual([]);
  });

  test("a devolution is submitted, in progress, then refunded by the status query; the balance goes back", async () => {
    const ctx = await setup();
    const { h, a, calls, script } = ctx;
    const id = await paidLive(ctx);
    const r = await h.call("POST", `/v1/payments/${id}/refund`, {
      key: a.liveKey,
      body: { idempotencyKey: key(), amount: 1000 },
    });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe("PENDING");
    expect((await getBalance(h.deps.store.read, a.accountId, true, "BRL")).pending).toBe(1500);
    const list = async () =>
      (await h.call("GET", `/v1/payments/${id}/refunds`, { key: a.liveKey })).body.data[0].status;
    // the PSP is down at first: the refund stays PENDING and is submitted again 30 s later
    script.refund = () => ({ status: "retryable", code: "timeout", message: "timeout" });
    await h.deps.jobs.drain();
    expect(await list()).toBe("PENDING");
    script.refund = () => ({ status: "pending", inProgress: true, checkAt: h.clock.nowMs() + 5_000 });
    h.clock.advance(30);
    await h.deps.jobs.drain();
    expect(await list()).toBe("IN_PROGRESS");
    h.clock.advance(5);
    await h.deps.jobs.drain();
    expect(await list()).toBe("REFUNDED");
    expect(calls.filter((c) => c.startsWith("refund") || c.startsWith("plan"))).toEqual([
      "plan -",
      "refund 1000 PENDING",
      "refund 1000 PENDING",
      "refundStatus IN_PROGRESS",
    ]);
    expect((await getBalance(h.deps.store.read, a.accountId, true, "BRL")).pending).toBe(1500);
    expect(await eventTypes(h, id)).toContain("charge.refunded");
  });

  test("a devolution the PSP refuses (NAO_REALIZADO) is FAILED and restores the balance", async () => {
    const ctx = await setup();
    const { h, a, script } = ctx;
    const id = await paidLive(ctx);
    script.refund = () => ({ status: "rejected", code: "NAO_REALIZADO", message: "refused" });
    const r = await h.call("POST", `/v1/payments/${id}/refund`, { key: a.liveKey, body: { idempotencyKey: key() } });
    expect((await getBalance(h.deps.store.read, a.accountId, true, "BRL")).pending).toBe(0);
    await h.deps.jobs.drain();
    const refunds = (await h.call("GET", `/v1/payments/${id}/refunds`, { key: a.liveKey })).body.data;
    expect(refunds.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([[r.body.id, "FAILED"]]);
    expect((await getBalance(h.deps.store.read, a.accountId, true, "BRL")).pending).toBe(2500);
  });
});

describe("cancelling through the provider", () => {
  const cancel = (h: Harness, a: SeededAccount, id: string) =>
    h.call("POST", `/v1/payments/${id}/cancel`, { key: a.liveKey, body: {} });

  test("the provider withdraws the cob first; then the transaction is CANCELLED", async () => {
    const { h, a, calls } = await setup();
    const id = (await liveCharge(h, a.liveKey)).body.id.slice(3);
    const r = await cancel(h, a, id);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe("CANCELLED");
    expect(calls).toEqual(["create PIX 2500", `cancel ${TXID}`]);
  });

  test("a provider that refuses answers 400 charge_not_cancellable, one that cannot be reached 503; the charge stays pending", async () => {
    const { h, a, script } = await setup();
    const id = (await liveCharge(h, a.liveKey)).body.id.slice(3);
    script.cancel = () => ({ status: "rejected", code: "CobConcluida", message: "the cob was already paid" });
    const refused = await cancel(h, a, id);
    expect([refused.status, refused.body.error.code]).toEqual([400, "charge_not_cancellable"]);
    expect(refused.body.error.message).toContain("the cob was already paid");
    script.cancel = () => ({ status: "retryable", code: "timeout", message: "timeout" });
    const down = await cancel(h, a, id);
    expect([down.status, down.body.error.code]).toEqual([503, "service_unavailable"]);
    expect((await h.call("GET", `/v1/charges/${id}`, { key: a.liveKey })).body.status).toBe("pending");
  });

  test("a transaction that cannot be cancelled is refused before the provider is called", async () => {
    const ctx = await setup();
    const { h, a, calls } = ctx;
    const id = (await liveCharge(h, a.liveKey)).body.id.slice(3);
    await recordPaymentOutcome(h.deps, (await h.deps.store.read.charges.byId(id))!, "PIX", {
      status: "settled",
      method: "PIX",
      amount: 2500,
    });
    const r = await cancel(h, a, id);
    expect([r.status, r.body.error.code]).toEqual([400, "charge_not_cancellable"]);
    expect(calls.filter((c) => c.startsWith("cancel"))).toEqual([]);
  });
});

describe("notifications are hints confirmed by a status query", () => {
  const E2E = "E12345678202611201200abcdefghijk";

  test("a callback naming the charge queues a query; only the query's answer pays it", async () => {
    const { h, a, b, calls, script, provider } = await setup();
    const id = (await liveCharge(h, a.liveKey)).body.id.slice(3);
    const body = {
      pix: [
        { endToEndId: E2E, txid: TXID, valor: "25.00" },
        { endToEndId: E2E, txid: "Unknown00000000000000000000" },
      ],
    };
    // another account's connection cannot reach this charge
    expect(await acceptNotification(h.deps, { accountId: b.accountId, livemode: true }, provider, "PIX", body)).toEqual(
      { accepted: 0, unknown: 2 },
    );
    expect(await acceptNotification(h.deps, { accountId: a.accountId, livemode: true }, provider, "PIX", body)).toEqual(
      { accepted: 1, unknown: 1 },
    );
    expect((await h.call("GET", `/v1/charges/${id}`, { key: a.liveKey })).body.status).toBe("pending");
    // the PSP does not know the payment yet: nothing changes
    await h.deps.jobs.drain();
    expect(calls.at(-1)).toBe(`query ${TXID} {"endToEndId":"${E2E}"}`);
    expect((await h.call("GET", `/v1/charges/${id}`, { key: a.liveKey })).body.status).toBe("pending");
    script.query = () => ({ status: "settled", method: "PIX", amount: 2500, endToEndId: E2E });
    h.clock.advance(1); // hints pull a charge's check to now at most once a second (notifications.ts HINT_CHECK_INTERVAL_MS)
    await acceptNotification(h.deps, { accountId: a.accountId, livemode: true }, provider, "PIX", body);
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/charges/${id}`, { key: a.liveKey })).body.status).toBe("paid");
    expect((await getBalance(h.deps.store.read, a.accountId, true, "BRL")).pending).toBe(2500);
  });

  test("a body the provider cannot read is 400 and queues nothing", async () => {
    const { h, a, provider } = await setup();
    await liveCharge(h, a.liveKey);
    await expect(
      acceptNotification(h.deps, { accountId: a.accountId, livemode: true }, provider, "PIX", { nope: 1 }),
    ).rejects.toThrow("The callback body has no pix list.");
    expect(await h.deps.jobs.pending("charge.status_check")).toBe(0);
  });
});
