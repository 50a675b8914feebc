import { describe, expect, test } from "bun:test";
import { CPF, CPF_2, createCharge, harness, newCharge } from "./support";

describe("fraud and velocity guard", () => {
  test("customer_velocity_max counts live charges per payer document inside the window", async () => {
    const h = harness();
    const a = await h.seedAccount({ settings: { customerVelocityMax: 2, velocityWindowSeconds: 600 } });
    const body = { customer: { name: "M", document: CPF } };
    await newCharge(h, a, body);
    await newCharge(h, a, { expected_payer_tax_id: CPF, customer: { name: "M" } });
    const over = await createCharge(h, a.testKey, body);
    expect(over.status).toBe(403);
    expect(over.body.error.type).toBe("permission_error");
    expect(over.body.error.code).toBe("fraud.customer_velocity_exceeded");
    // another payer is not affected
    expect((await createCharge(h, a.testKey, { customer: { name: "N", document: CPF_2 } })).status).toBe(201);
    // after the window the old charges no longer count
    h.clock.advance(601);
    expect((await createCharge(h, a.testKey, body)).status).toBe(201);
  });

  test("account_velocity_max counts every alive charge of the mode; expired and failed ones do not count", async () => {
    const h = harness();
    const a = await h.seedAccount({ settings: { accountVelocityMax: 2, velocityWindowSeconds: 3600 } });
    const first = await newCharge(h, a, { expires_in: 60 });
    const second = await newCharge(h, a);
    const over = await createCharge(h, a.testKey);
    expect(over.status).toBe(403);
    expect(over.body.error.code).toBe("fraud.account_velocity_exceeded");
    // a paid charge still counts
    await h.call("POST", `/v1/test_helpers/charges/${second.id}/pay`, { key: a.testKey, body: {} });
    expect((await createCharge(h, a.testKey)).status).toBe(403);
    // the expired one stops counting
    h.clock.advance(61);
    await h.deps.jobs.drain();
    expect((await h.call("GET", `/v1/charges/${first.id}`, { key: a.testKey })).body.status).toBe("expired");
    const third = await createCharge(h, a.testKey);
    expect(third.status).toBe(201);
    // a declined one stops counting too
    await h.call("POST", `/v1/test_helpers/charges/${third.body.id}/pay`, {
      key: a.testKey,
      body: { outcome: "decline" },
    });
    expect((await createCharge(h, a.testKey)).status).toBe(201);
  });

  test("without limits nothing is refused, and the sandbox and live counts are separate", async () => {
    const h = harness();
    const a = await h.seedAccount();
    for (let i = 0; i < 5; i++) expect((await createCharge(h, a.testKey)).status).toBe(201);
    const limited = await h.seedAccount({ settings: { accountVelocityMax: 1 } });
    await newCharge(h, limited);
    // live mode has no provider (422), but the guard runs first only on its own live charges: none exist
    expect((await createCharge(h, limited.liveKey)).status).toBe(422);
  });
});
