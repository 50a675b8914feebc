/**
 * A live payment offering PIX and CREDIT_CARD (issue 26 §2) with an account connected to both
 * `cofre psp-sim` (Pix) and `cofre stripe-sim` (cards): the cob and the Checkout Session are both
 * created, the checkout page offers both, each method is polled through its own connection, and
 * paying by card settles it APPROVED.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../src/lib/logger";
import { startStripeSim, type StripeSim } from "../../src/stripe-sim/server";
import { advance, startLive, type LiveEnv } from "../pix-provider/live-support";
import { OPERATOR_TOKEN } from "../pix-provider/support";
import { testDb } from "../support/test-db";

let live: LiveEnv;
let sim: StripeSim;
let root: string;
beforeAll(async () => {
  // A Pix window (10 min) shorter than Stripe's shortest Checkout Session (30 min).
  live = await startLive({ settings: { defaultExpiresIn: 600 } });
  root = mkdtempSync(join(tmpdir(), "stripe-sim-"));
  // The simulator shares Cofre's clock: event signatures are checked against it.
  sim = await startStripeSim({
    dir: join(root, "sim"),
    port: 0,
    clock: live.h.clock,
    logger: createLogger("silent"),
    sweepMs: 0,
    retrySchedule: [50, 100],
  });
  live.h.deps.config.checkoutUrlBase = `${live.h.deps.config.publicUrl}/c`;
  const r = await live.h.call("PUT", `/v1/operator/accounts/${live.a.accountId}/card-provider`, {
    bearer: OPERATOR_TOKEN,
    body: { type: "stripe", secret_key: sim.secretKey, api_base: sim.origin },
  });
  expect(r.status).toBe(200);
});
afterAll(async () => {
  await sim.stop();
  await live.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("a live payment offering PIX and CREDIT_CARD", () => {
  test("creates the cob and the session, offers both on the checkout page, and is APPROVED when paid by card", async () => {
    const r = await live.h.call("POST", "/v1/payments", {
      key: live.a.liveKey,
      body: { amount: 7700, paymentMethods: ["PIX", "CREDIT_CARD"], idempotencyKey: `both-${crypto.randomUUID()}` },
    });
    expect(r.status).toBe(201);
    const id = r.body.id as string;
    const got = await live.h.call("GET", `/v1/payments/${id}`, { key: live.a.liveKey });
    expect(typeof got.body.pixCopyPaste).toBe("string");
    expect(got.body.cardRedirectUrl).toBe(`${live.h.deps.config.publicUrl}/c/${id}`);
    const row = (await live.h.deps.store.read.charges.byId(id))!;
    expect(row.providerConnectionId).toBe(live.connectionId);
    const card = JSON.parse(row.methodDetails).CREDIT_CARD;
    const page = await fetch(`${live.h.deps.config.publicUrl}/c/${id}`).then((x) => x.text());
    expect(page).toContain(`href="${card.sessionUrl}"`);
    expect(page).toContain(got.body.pixCopyPaste.slice(0, 20));
    // Each method has its own status check, through its own connection.
    const checks = await testDb(live.h.deps).all<{ dedupe_key: string }>(
      "select dedupe_key from jobs where kind = 'charge.status_check' and dedupe_key like ?",
      `%${id}%`,
    );
    expect(checks.map((c) => c.dedupe_key).sort()).toEqual([
      `charge.status_check:${id}`,
      `charge.status_check:${id}:CREDIT_CARD`,
    ]);
    expect(
      (await fetch(`${sim.origin}/_sim/checkout/sessions/${card.session}/pay`, { method: "POST", body: "{}" })).status,
    ).toBe(200);
    for (let i = 0; i < 500 && (await live.h.deps.store.read.charges.byId(id))!.status !== "APPROVED"; i++) {
      await live.h.deps.jobs.drain();
      await Bun.sleep(10);
    }
    expect((await live.h.deps.store.read.charges.byId(id))!.status).toBe("APPROVED");
  });

  test("when the Pix window ends unpaid the payment expires and its card session is expired at Stripe", async () => {
    const r = await live.h.call("POST", "/v1/payments", {
      key: live.a.liveKey,
      body: { amount: 5500, paymentMethods: ["PIX", "CREDIT_CARD"], idempotencyKey: `both-${crypto.randomUUID()}` },
    });
    expect(r.status).toBe(201);
    const id = r.body.id as string;
    const card = JSON.parse((await live.h.deps.store.read.charges.byId(id))!.methodDetails).CREDIT_CARD;
    await advance(live, 600 + 60);
    for (let i = 0; i < 500 && (await live.h.deps.store.read.charges.byId(id))!.status !== "EXPIRED"; i++) {
      await live.h.deps.jobs.drain();
      await Bun.sleep(10);
    }
    expect((await live.h.deps.store.read.charges.byId(id))!.status).toBe("EXPIRED");
    const session = async () =>
      (await fetch(`${sim.origin}/v1/checkout/sessions/${card.session}`, {
        headers: { authorization: `Bearer ${sim.secretKey}` },
      }).then((x) => x.json())) as any;
    for (let i = 0; i < 500 && (await session()).status !== "expired"; i++) {
      await live.h.deps.jobs.drain();
      await Bun.sleep(10);
    }
    expect((await session()).status).toBe("expired");
  });
});
