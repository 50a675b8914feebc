import { afterEach, describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { hmacHex } from "../../src/lib/crypto";
import { rawId } from "../../src/lib/ids";
import { checkTransactionWebhookUrl } from "../../src/domain/webhooks/service";
import { deterministic, emitChargePaid, emitPaymentCompleted, register, startReceiver, type Receiver } from "./support";
import { emitCanonical } from "../../src/domain/events/emit";
import { transactionRow } from "../payments/support";

const receivers: Receiver[] = [];
afterEach(() => {
  while (receivers.length) receivers.pop()!.stop();
});

async function insertTransaction(
  h: ReturnType<typeof createHarness>,
  accountId: string,
  webhookUrl: string | null,
  livemode = false,
): Promise<string> {
  const id = rawId();
  const now = h.clock.nowMs();
  await h.deps.store.tx((uow) =>
    uow.charges.insert(
      transactionRow({
        id,
        accountId,
        livemode,
        amount: 1500,
        currency: "BRL",
        status: "PAID",
        paymentMethods: '["PIX"]',
        origin: "payments",
        webhookUrl,
        createdAt: now,
        updatedAt: now,
      }),
    ),
  );
  return id;
}

describe("per-transaction webhookUrl", () => {
  test("legacy events about the transaction go to its webhookUrl, signed with the transaction-webhook secret", async () => {
    const h = createHarness({ webhookAllowPrivate: true }, new Date().toISOString());
    deterministic(h);
    const a = await h.seedAccount();
    const rx = startReceiver();
    receivers.push(rx);
    const txId = await insertTransaction(h, a.accountId, `${rx.url}/tx`);
    const sec = await h.call("POST", "/v1/webhooks/transaction-secret/rotate", { key: a.testKey });
    expect(sec.status).toBe(200);
    expect(Object.keys(sec.body)).toEqual(["secret"]);
    expect(sec.body.secret).toMatch(/^[0-9a-f]{64}$/);
    await emitPaymentCompleted(h, a.accountId, false, txId);
    await h.deps.store.tx((uow) =>
      emitCanonical(h.deps, uow, { accountId: a.accountId, livemode: false, transactionId: txId }, "charge.paid", {
        id: `ch_${txId}`,
      }),
    );
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(1);
    const req = rx.requests[0]!;
    expect(req.path).toBe("/hook/tx");
    expect(JSON.parse(req.body).data.transactionId).toBe(txId);
    expect(req.headers["x-cofre-signature"]).toBe(`sha256=${hmacHex(sec.body.secret, req.body)}`);
    const list = await h.call("GET", "/v1/webhooks/deliveries", { key: a.testKey });
    expect(list.body.data.map((d: { endpointId: string | null; status: string }) => [d.endpointId, d.status])).toEqual([
      [null, "DELIVERED"],
    ]);
  });

  test("an endpoint with the same URL receives the event once, and transactions without webhookUrl get nothing extra", async () => {
    const h = createHarness({ webhookAllowPrivate: true }, new Date().toISOString());
    const a = await h.seedAccount();
    const rx = startReceiver();
    receivers.push(rx);
    await register(h, a.testKey, rx.url, ["payment.completed"]);
    const same = await insertTransaction(h, a.accountId, rx.url);
    const none = await insertTransaction(h, a.accountId, null);
    await emitPaymentCompleted(h, a.accountId, false, same);
    await emitPaymentCompleted(h, a.accountId, false, none);
    await emitChargePaid(h, a.accountId);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(2);
    expect((await h.call("GET", "/v1/webhooks/stats", { key: a.testKey })).body.total).toBe(2);
  });

  test("another account's transaction id does not leak its webhookUrl", async () => {
    const h = createHarness({ webhookAllowPrivate: true }, new Date().toISOString());
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const rx = startReceiver();
    receivers.push(rx);
    const txOfB = await insertTransaction(h, b.accountId, rx.url);
    await emitPaymentCompleted(h, a.accountId, false, txOfB);
    await h.deps.jobs.drain();
    expect(rx.requests).toHaveLength(0);
  });

  test("webhookUrl validation follows the endpoint rules: private targets refused in both modes, http only in test mode", () => {
    const h = createHarness();
    expect(checkTransactionWebhookUrl(h.deps, "http://hooks.example.com/x", false)).toBe("http://hooks.example.com/x");
    const codeOf = (url: string, live: boolean) => {
      try {
        checkTransactionWebhookUrl(h.deps, url, live);
        return "accepted";
      } catch (e) {
        expect((e as { extra: { param: string } }).extra.param).toBe("webhookUrl");
        return (e as { code: string }).code;
      }
    };
    expect(codeOf("http://hooks.example.com/x", true)).toBe("invalid_url");
    expect(codeOf("http://localhost:3000/x", false)).toBe("webhook_url_not_allowed");
    expect(codeOf("https://10.0.0.1/x", true)).toBe("webhook_url_not_allowed");
    const open = createHarness({ webhookAllowPrivate: true });
    expect(checkTransactionWebhookUrl(open.deps, "http://localhost:3000/x", false)).toBe("http://localhost:3000/x");
  });
});
