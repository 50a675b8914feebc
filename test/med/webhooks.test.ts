/**
 * MED events reach a subscribed merchant endpoint: a real receiver on 127.0.0.1 gets
 * `med_case.created`, `med_case.updated` and `med.resolved` with the canonical envelope and the
 * Cofre signature headers, and nothing of the charge.* family for the MED itself.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import type { SeededAccount } from "../support/harness";
import { medHarness, openMed, paidCharge, seedMerchant, type MedHarness } from "./fixtures";

let h: MedHarness;
let a: SeededAccount;
let receiver: ReturnType<typeof Bun.serve>;
const received: { headers: Headers; body: string }[] = [];

beforeAll(async () => {
  receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => {
      received.push({ headers: req.headers, body: await req.text() });
      return new Response("ok");
    },
  });
  h = medHarness({ webhookAllowPrivate: true });
  a = await seedMerchant(h);
});

afterAll(() => {
  receiver.stop(true);
});

describe("MED webhooks", () => {
  test("a subscribed endpoint receives the MED family, signed, in event order", async () => {
    const c = await paidCharge(h, a, 3_000);
    const ep = await h.call("POST", "/v1/webhooks/endpoints", {
      key: a.testKey,
      body: {
        url: `http://127.0.0.1:${receiver.port}/hook`,
        events: ["med_case.created", "med_case.updated", "med.resolved", "charge.failed"],
      },
    });
    expect(ep.status).toBe(201);
    const kase = await openMed(h, a, c);
    await h.call("POST", `/v1/med/cases/${kase.id}/appeal`, {
      key: a.testKey,
      body: { reason: "delivered in person" },
    });
    await h.call("POST", `/v1/test_helpers/med/cases/${kase.id}/resolve`, {
      key: a.testKey,
      body: { outcome: "merchant_favor" },
    });
    await h.deps.jobs.drain();
    // Deliveries run concurrently (on PostgreSQL each on its own connection), so arrival order is
    // not the order of events: a receiver orders them by event id (time-ordered, evt_ + UUIDv7).
    received.sort((x, y) => (JSON.parse(x.body).id < JSON.parse(y.body).id ? -1 : 1));
    const types = received.map((r) => JSON.parse(r.body).type);
    expect(types).toEqual(["med_case.created", "med_case.updated", "med_case.updated", "med.resolved"]);
    for (const r of received) {
      const body = JSON.parse(r.body);
      expect(Object.keys(body).sort()).toEqual(["api_version", "created_at", "data", "id", "object", "type"]);
      expect(r.headers.get("x-cofre-event-type")).toBe(body.type);
      const [t, v1] = r.headers.get("x-cofre-signature")!.split(",");
      const ts = t!.slice(2);
      expect(v1!.slice(3)).toBe(createHmac("sha256", ep.body.secret).update(`${ts}.${r.body}`).digest("hex"));
    }
    expect(JSON.parse(received[0]!.body).data.object).toMatchObject({
      id: kase.id,
      object: "med_case",
      status: "open",
    });
    expect(JSON.parse(received[3]!.body).data.object).toMatchObject({
      med_case_id: kase.id,
      money_outcome: "refunded_to_merchant",
    });
  });
});
