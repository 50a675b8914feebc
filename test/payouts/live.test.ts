/**
 * Live payouts through the provider seam (src/domain/providers/types.ts `send`, `sendStatus`,
 * `connectionId`): a scripted PSP that keeps its sends by `sendId` like Efí does. The payout
 * stores the connection that sends it and every later step reaches it by `forConnection`; a
 * timeout after the PSP accepted is resolved by the resumed call (one send); a refusal fails the
 * payout with the PSP's code and gives the balance back; an account whose provider cannot send is 422.
 */
import { describe, expect, test } from "bun:test";
import { sandboxFaultStore } from "../../src/domain/charges/faults";
import { ProviderRegistry } from "../../src/domain/providers/registry";
import { createSandboxProvider } from "../../src/providers/sandbox";
import type { PaymentProvider, SendOutcome, SendRequest } from "../../src/domain/providers/types";
import { verifyLedger } from "../../src/domain/ledger";
import { hintSends } from "../../src/domain/payouts/jobs";
import { testDb } from "../support/test-db";
import type { Harness } from "../support/harness";
import { available, destination, fund, payout, setup, type PayoutAccount } from "./support";

const CONNECTION = "ppc_fake0000000000000000000000000001";
const E2E = "E12345678202611201200abcdefghijk";

/**
 * A PSP with a send book: `send` records (unless resumed and already known), `sendStatus` reads it. `answer` scripts
 * the send's reply.
 */
function psp() {
  const sent = new Map<string, { req: SendRequest; status: "processing" | "paid" | "rejected" }>();
  const calls: string[] = [];
  const script = { answer: (): SendOutcome | null => null, settle: "paid" as "paid" | "rejected" | "processing" };
  const provider = {
    name: "scripted_psp",
    methods: new Set(["PIX"]),
    connectionId: CONNECTION,
    async send(_ctx: unknown, req: SendRequest): Promise<SendOutcome> {
      calls.push(`send ${req.sendId} resumed=${req.resumed}`);
      if (!(req.resumed && sent.has(req.sendId))) sent.set(req.sendId, { req, status: "processing" });
      return script.answer() ?? { status: "processing" };
    },
    async sendStatus(_ctx: unknown, req: SendRequest): Promise<SendOutcome> {
      calls.push(`status ${req.sendId}`);
      const s = sent.get(req.sendId);
      if (!s) return { status: "absent" };
      if (script.settle === "paid") return { status: "paid", endToEndId: E2E };
      if (script.settle === "rejected")
        return { status: "rejected", code: "SALDO_INSUFICIENTE", message: "Saldo insuficiente no PSP." };
      return { status: "processing" };
    },
  } as unknown as PaymentProvider;
  return { provider, sent, calls, script };
}

/** An account `a` whose live PIX provider is the scripted PSP (connection CONNECTION) and `b` whose live provider cannot send. */
async function liveSetup() {
  const { h, a } = await setup();
  const { a: b } = await setup({}, h);
  const p = psp();
  const noSend = {
    name: "no_send",
    methods: new Set(["PIX"]),
    connectionId: "ppc_nosend",
  } as unknown as PaymentProvider;
  const byConnection = new Map<string, PaymentProvider>([[CONNECTION, p.provider]]);
  h.deps.providers = new ProviderRegistry({
    config: h.deps.config,
    clock: h.clock,
    sandbox: createSandboxProvider({ faults: sandboxFaultStore(() => h.deps.store) }),
    live: (accountId) => (accountId === a.accountId ? p.provider : accountId === b.accountId ? noSend : undefined),
    byConnection: (id) => byConnection.get(id),
  });
  await fund(h, a, 10_000, true);
  await fund(h, b, 10_000, true);
  return { h, a, b, ...p, byConnection };
}

async function livePayout(h: Harness, a: PayoutAccount, amount = 1_000) {
  const r = await payout(h, a.liveKey, { amount, destination_id: (await destination(h, a)).id, description: "Saque" });
  expect(r.status).toBe(201);
  return r.body;
}

describe("live payouts through the account's PSP", () => {
  test("the payout stores its sending connection and send id; a timeout after the PSP accepted is resolved by the resumed call, with one send", async () => {
    const { h, a, sent, calls, script } = await liveSetup();
    const po = await livePayout(h, a);
    expect(po.livemode).toBe(true);
    const [row] = await testDb(h.deps).all<{ provider_connection_id: string; send_id: string }>(
      "select provider_connection_id, send_id from payouts where id = ?",
      po.id,
    );
    expect(row).toEqual({ provider_connection_id: CONNECTION, send_id: po.id.slice(3) });
    // The PSP takes the send, but the answer never arrives.
    script.answer = () => ({ status: "retryable", code: "timeout", message: "The PSP did not answer in time." });
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/payouts/${po.id}`, { key: a.liveKey })).body.status).toBe("processing");
    script.answer = () => null;
    h.clock.advance(30);
    await h.deps.jobs.drain();
    // Status queries back off from the recorded send: the next comes 30 s after this one (2x its age).
    h.clock.advance(29);
    await h.deps.jobs.drain();
    expect(calls).toHaveLength(2);
    h.clock.advance(1);
    await h.deps.jobs.drain();
    expect(calls.slice(0, 3)).toEqual([
      `send ${row!.send_id} resumed=false`,
      `send ${row!.send_id} resumed=true`,
      `status ${row!.send_id}`,
    ]);
    expect(sent.size).toBe(1);
    const paid = (await h.call("GET", `/v1/payouts/${po.id}`, { key: a.liveKey })).body;
    expect(paid).toMatchObject({ status: "paid", end_to_end_id: E2E });
    expect(await available(h, a.liveKey)).toBe(9_000);
    expect(sent.get(row!.send_id)!.req).toMatchObject({
      amount: 1_000,
      description: "Saque",
      destination: { type: "pix_key", pixKey: "fulano@example.com", pixKeyType: "email" },
    });
  });

  test("a send the PSP refuses fails the payout with its code and message, and the balance comes back", async () => {
    const { h, a, script } = await liveSetup();
    script.settle = "rejected";
    const po = await livePayout(h, a, 2_500);
    expect(await available(h, a.liveKey)).toBe(7_500);
    await h.deps.jobs.drain();
    h.clock.advance(5);
    await h.deps.jobs.drain();
    const failed = (await h.call("GET", `/v1/payouts/${po.id}`, { key: a.liveKey })).body;
    expect(failed).toMatchObject({
      status: "failed",
      failure_code: "SALDO_INSUFICIENTE",
      failure_message: "Saldo insuficiente no PSP.",
      failed_at: "2026-11-20T12:00:05.000Z",
    });
    expect(await available(h, a.liveKey)).toBe(10_000);
    expect((await verifyLedger(h.deps.store.read)).mismatches).toEqual([]);
  });

  test("a status query that finds no send (it never reached the PSP) sends it then", async () => {
    const { h, a, sent, calls } = await liveSetup();
    const po = await livePayout(h, a);
    await h.deps.jobs.drain();
    sent.clear(); // the PSP lost it
    h.clock.advance(5);
    await h.deps.jobs.drain();
    expect(calls.map((c) => c.split(" ")[0])).toEqual(["send", "status", "send"]);
    expect(calls[2]).toEndWith("resumed=true");
    expect(sent.size).toBe(1);
    h.clock.advance(5);
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/payouts/${po.id}`, { key: a.liveKey })).body.status).toBe("paid");
  });

  test("later steps reach the stored connection even when the account's provider changed meanwhile", async () => {
    const { h, a, calls } = await liveSetup();
    const po = await livePayout(h, a);
    const original = h.deps.providers;
    h.deps.providers = new ProviderRegistry({
      config: h.deps.config,
      clock: h.clock,
      live: () => undefined,
      byConnection: (id) => original.forConnection(id),
    });
    await h.deps.jobs.drain();
    h.clock.advance(5);
    await h.deps.jobs.drain();
    expect(calls.map((c) => c.split(" ")[0])).toEqual(["send", "status"]);
    expect((await h.call("GET", `/v1/payouts/${po.id}`, { key: a.liveKey })).body.status).toBe("paid");
  });

  test("a callback hint (hintSends) has the payout's status checked now instead of at its backoff; unknown send ids and other scopes are ignored", async () => {
    const { h, a, calls } = await liveSetup();
    const po = await livePayout(h, a);
    await h.deps.jobs.drain();
    expect(calls).toHaveLength(1);
    const other = { accountId: a.accountId, livemode: false };
    expect(await h.deps.store.tx((uow) => hintSends(h.deps, uow, [po.id.slice(3)], h.clock.nowMs(), other))).toBe(0);
    await h.deps.jobs.drain();
    expect(calls).toHaveLength(1);
    const scope = { accountId: a.accountId, livemode: true };
    const asked = await h.deps.store.tx((uow) =>
      hintSends(h.deps, uow, [po.id.slice(3), "unknownsendid", po.id.slice(3)], h.clock.nowMs(), scope),
    );
    expect(asked).toBe(1);
    await h.deps.jobs.drain();
    expect(calls.map((c) => c.split(" ")[0])).toEqual(["send", "status"]);
    expect((await h.call("GET", `/v1/payouts/${po.id}`, { key: a.liveKey })).body.status).toBe("paid");
    expect(await h.deps.store.tx((uow) => hintSends(h.deps, uow, [po.id.slice(3)], h.clock.nowMs()))).toBe(0);
  });

  test("an account whose live provider cannot send Pix is 422 unprocessable_entity and nothing moves", async () => {
    const { h, b } = await liveSetup();
    const r = await payout(h, b.liveKey, { amount: 100, destination_id: (await destination(h, b)).id });
    expect([r.status, r.body.error.type, r.body.error.code]).toEqual([
      422,
      "invalid_request_error",
      "unprocessable_entity",
    ]);
    expect(await available(h, b.liveKey)).toBe(10_000);
  });
});
