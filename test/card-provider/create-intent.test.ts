/**
 * One Checkout Session per live card payment under lost answers and crashes (issue 26 §5; the
 * durable create intent of src/domain/charges/intents.ts): the Stripe adapter reserves the
 * transaction id, so a retry of the same Idempotency-Key, or the recovery job after the request
 * died, sends the same request under the same Stripe idempotency key and gets the session Stripe
 * already made; a recovery whose request never reached Stripe leaves no open session. Stripe's
 * answer is lost by wrapping the provider context's fetch (the request reaches the simulator).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { recoverIntents, RECOVERY_GRACE_MS } from "../../src/domain/charges/intent-recovery";
import type { HttpFetch } from "../../src/domain/providers/types";
import { startCardEnv, type CardEnv } from "./support";

let env: CardEnv;
let realFetch: HttpFetch;
beforeAll(async () => {
  env = await startCardEnv();
  realFetch = env.h.deps.providers.ctx.fetch;
});
afterEach(() => {
  env.h.deps.providers.ctx.fetch = realFetch;
});
afterAll(async () => {
  await env.stop();
});

/**
 * Session creations fail as seen by Cofre: `reach` true = Stripe made the session and the answer was lost; false = the
 * request never left.
 */
function loseSessionCreates(reach: boolean) {
  env.h.deps.providers.ctx.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if ((init?.method ?? "GET") === "POST" && url.endsWith("/v1/checkout/sessions")) {
      if (reach) await realFetch(input, init);
      throw new TypeError("fetch failed: connection reset");
    }
    return realFetch(input, init);
  };
}

const sessions = async () => (await env.control("GET", "/_sim/state")).body.counts["checkout.session"] as number;
const openSessions = async () =>
  (
    (await fetch(`${env.sim.origin}/v1/checkout/sessions?status=open&limit=100`, {
      headers: { authorization: `Bearer ${env.sim.secretKey}` },
    }).then((r) => r.json())) as any
  ).data.length as number;
const create = (key: string) =>
  env.h.call("POST", "/v1/payments", {
    key: env.account.liveKey,
    body: { amount: 3100, paymentMethods: ["CREDIT_CARD"], idempotencyKey: key },
  });

describe("a live card create whose answer is lost", () => {
  test("answers 503; the retry with the same Idempotency-Key gets the one session Stripe made", async () => {
    const before = await sessions();
    const key = `lost-${crypto.randomUUID()}`;
    loseSessionCreates(true);
    expect((await create(key)).status).toBe(503);
    expect(await sessions()).toBe(before + 1);
    env.h.deps.providers.ctx.fetch = realFetch;
    const r = await create(key);
    expect(r.status).toBe(201);
    expect(await sessions()).toBe(before + 1);
    const session = JSON.parse((await env.h.deps.store.read.charges.byId(r.body.id))!.methodDetails).CREDIT_CARD
      .session;
    const s = await fetch(`${env.sim.origin}/v1/checkout/sessions/${session}`, {
      headers: { authorization: `Bearer ${env.sim.secretKey}` },
    }).then((x) => x.json() as any);
    expect(s.client_reference_id).toBe(r.body.id);
  });

  test("without a retry, the recovery commits the payment with that one session", async () => {
    const before = await sessions();
    const key = `crash-${crypto.randomUUID()}`;
    loseSessionCreates(true);
    expect((await create(key)).status).toBe(503);
    env.h.deps.providers.ctx.fetch = realFetch;
    env.h.clock.advance(RECOVERY_GRACE_MS / 1000 + 1);
    expect(await recoverIntents(env.h.deps)).toEqual({ finalised: 1, dropped: 0, kept: 0 });
    expect(await sessions()).toBe(before + 1);
    // The request's idempotency record now replays the payment the recovery committed.
    const r = await create(key);
    expect(r.status).toBe(201);
    expect((await env.h.deps.store.read.charges.byId(r.body.id))!.status).toBe("WAITING_PAYMENT");
  });

  test("a create that never reached Stripe is dropped by the recovery, leaving no open session", async () => {
    const open = await openSessions();
    const key = `never-${crypto.randomUUID()}`;
    loseSessionCreates(false);
    expect((await create(key)).status).toBe(503);
    env.h.deps.providers.ctx.fetch = realFetch;
    env.h.clock.advance(RECOVERY_GRACE_MS / 1000 + 1);
    expect(await recoverIntents(env.h.deps)).toEqual({ finalised: 0, dropped: 1, kept: 0 });
    expect(await openSessions()).toBe(open);
  });
});
