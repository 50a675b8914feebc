/**
 * The outbox keeps legacy and MED events only when somebody is subscribed to them; canonical
 * events are always kept, for the events API (src/domain/events/emit.ts), but delivered only to
 * subscribers.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { deterministic, register, startReceiver, type Receiver } from "./support";
import { testDb } from "../support/test-db";

const receivers: Receiver[] = [];
afterEach(() => {
  while (receivers.length) receivers.pop()!.stop();
});

const storedTypes = async (h: ReturnType<typeof createHarness>, rawId: string) =>
  (await testDb(h.deps).all<{ type: string }>("select type from events where transaction_id = ?", rawId))
    .map((e) => e.type)
    .sort();

async function createCharge(h: ReturnType<typeof createHarness>, key: string, n: number) {
  const r = await h.call("POST", "/v1/pix/charges", {
    key,
    headers: { "idempotency-key": `unsubscribed-${n}` },
    body: { amount: 1500 },
  });
  expect(r.status).toBe(201);
  return (r.body.id as string).replace(/^ch_/, "");
}

describe("events nobody is subscribed to", () => {
  test("a charge created with no endpoint stores only its canonical charge.created, no delivery, and answers the same 201", async () => {
    const h = createHarness({ webhookAllowPrivate: true }, new Date().toISOString());
    const a = await h.seedAccount();
    const id = await createCharge(h, a.testKey, 1);
    expect(await storedTypes(h, id)).toEqual(["charge.created"]);
    expect(await testDb(h.deps).all("select * from webhook_deliveries")).toEqual([]);
  });

  test("only the subscribed legacy types are stored, only subscribed types are delivered; an endpoint added later gets no earlier event", async () => {
    const h = createHarness({ webhookAllowPrivate: true }, new Date().toISOString());
    deterministic(h);
    const a = await h.seedAccount();
    const before = await createCharge(h, a.testKey, 2);
    const rx = startReceiver();
    receivers.push(rx);
    await register(h, a.testKey, rx.url, ["charge.paid"]);
    const after = await createCharge(h, a.testKey, 3);
    expect(await storedTypes(h, after)).toEqual(["charge.created"]); // payment.created: not subscribed
    const paid = await h.call("POST", `/v1/test_helpers/charges/ch_${after}/pay`, { key: a.testKey, body: {} });
    expect(paid.status).toBe(200);
    expect(await storedTypes(h, after)).toEqual(["charge.created", "charge.paid"]);
    await h.deps.jobs.drain();
    expect(rx.requests.map((r) => JSON.parse(r.body).type)).toEqual(["charge.paid"]);
    expect(JSON.parse(rx.requests[0]!.body).data.object.id).toBe(`ch_${after}`);
    expect(await storedTypes(h, before)).toEqual(["charge.created"]);
  });

  test("a live endpoint does not make test-mode legacy events stored", async () => {
    const h = createHarness({ webhookAllowPrivate: true }, new Date().toISOString());
    const a = await h.seedAccount();
    await register(h, a.liveKey, "https://hooks.example.com/live", ["charge.created", "payment.created"]);
    const id = await createCharge(h, a.testKey, 4);
    expect(await storedTypes(h, id)).toEqual(["charge.created"]);
    expect(await testDb(h.deps).all("select * from webhook_deliveries")).toEqual([]);
  });
});
