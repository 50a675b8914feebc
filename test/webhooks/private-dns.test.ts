/**
 * Webhook URLs whose DNS name resolves to a private address (issue 30 §7; extensions.md "Webhook
 * targets and private addresses"): accepted at registration (no lookup then), refused at connect
 * time on every attempt, each refusal recorded in `lastError` and on the attempt, and the delivery
 * follows the retry schedule to FAILED (dead letter), never left PENDING. The resolver is injected
 * (a nip.io-like name -> 127.0.0.1; there is no internet here); time moves with the test clock.
 */
import { describe, expect, test } from "bun:test";
import { createHarness } from "../support/harness";
import { configureWebhookRuntime } from "../../src/domain/webhooks/runtime";
import { MAX_ATTEMPTS, RETRY_SCHEDULE_SECONDS } from "../../src/domain/webhooks/model";
import { emitChargePaid, onlyDelivery, register } from "./support";

const NAME = "hooks.127.0.0.1.nip.io";
const REFUSAL = `refused: ${NAME} resolves to 127.0.0.1 is a loopback address`;

/** A harness whose resolver answers like nip.io (`a.b.c.d.nip.io` -> a.b.c.d) and whose fetch records every call. */
function nipHarness() {
  const h = createHarness();
  const fetched: string[] = [];
  const lookedUp: string[] = [];
  configureWebhookRuntime(h.deps, {
    random: () => 0.5, // the nominal schedule, no jitter
    lookup: async (host) => {
      lookedUp.push(host);
      const m = /(\d+\.\d+\.\d+\.\d+)\.nip\.io$/.exec(host);
      return m ? [{ address: m[1]!, family: 4 }] : [];
    },
    fetch: async (url) => {
      fetched.push(url);
      return new Response("must not be reached");
    },
  });
  return { h, fetched, lookedUp };
}

describe("a webhook URL whose name resolves to a private address", () => {
  for (const mode of ["test", "live"] as const)
    test(`is accepted at registration in ${mode} mode without a lookup`, async () => {
      const { h, lookedUp } = nipHarness();
      const a = await h.seedAccount();
      const ep = await register(h, mode === "live" ? a.liveKey : a.testKey, `https://${NAME}/hook`);
      expect([ep.url, ep.status]).toEqual([`https://${NAME}/hook`, "ACTIVE"]);
      expect(lookedUp).toEqual([]);
    });

  test("its delivery records the refusal on the first attempt and waits for the schedule's first retry", async () => {
    const { h, fetched } = nipHarness();
    const a = await h.seedAccount();
    await register(h, a.testKey, `https://${NAME}/hook`);
    await emitChargePaid(h, a.accountId);
    const start = h.clock.nowMs();
    await h.deps.jobs.drain();
    const d = await onlyDelivery(h, a.testKey);
    expect(d).toMatchObject({
      status: "PENDING",
      attempts: 1,
      lastError: REFUSAL,
      lastStatusCode: null,
      lastResponseBody: null,
    });
    expect(Date.parse(d.nextRetryAt) - start).toBe(RETRY_SCHEDULE_SECONDS[0]! * 1000);
    expect(fetched).toEqual([]);
  });

  test("its delivery is refused on every attempt of the schedule and ends FAILED with the refusal as lastError, never contacted", async () => {
    const { h, fetched, lookedUp } = nipHarness();
    const a = await h.seedAccount();
    await register(h, a.testKey, `https://${NAME}/hook`);
    await emitChargePaid(h, a.accountId);
    const start = h.clock.nowMs();
    await h.deps.jobs.drain();
    // The test clock moves to each retry's due time in turn, running what is due there.
    for (let i = 0; i < 40 && (await onlyDelivery(h, a.testKey)).status !== "FAILED"; i++) {
      const pending = await onlyDelivery(h, a.testKey);
      expect(pending).toMatchObject({ status: "PENDING", lastError: REFUSAL });
      h.clock.advance((Date.parse(pending.nextRetryAt) - h.clock.nowMs()) / 1000);
      await h.deps.jobs.drain();
    }
    const d = await onlyDelivery(h, a.testKey);
    expect(d).toMatchObject({
      status: "FAILED",
      attempts: MAX_ATTEMPTS,
      maxAttempts: MAX_ATTEMPTS,
      lastError: REFUSAL,
      lastStatusCode: null,
      nextRetryAt: null,
    });
    expect(fetched).toEqual([]);
    expect(lookedUp).toEqual(Array(MAX_ATTEMPTS).fill(NAME)); // resolved afresh at each attempt
    const attempts = await h.call("GET", `/v1/webhooks/deliveries/${d.id}/attempts`, { key: a.testKey });
    expect(attempts.status).toBe(200);
    const list = attempts.body.data as {
      attempt: number;
      status_code: number | null;
      error: string;
      attempted_at: string;
    }[];
    expect(list.map((x) => [x.attempt, x.status_code, x.error])).toEqual(
      Array.from({ length: MAX_ATTEMPTS }, (_, i) => [i + 1, null, REFUSAL]),
    ); // oldest first
    // Attempt n+1 started the schedule's n-th delay after attempt n.
    let at = 0;
    expect(list.map((x) => Date.parse(x.attempted_at) - start)).toEqual([
      0,
      ...RETRY_SCHEDULE_SECONDS.map((s) => (at += s * 1000)),
    ]);
    const stats = await h.call("GET", "/v1/webhooks/stats", { key: a.testKey });
    expect(stats.body).toEqual({ total: 1, PENDING: 0, PROCESSING: 0, DELIVERED: 0, FAILED: 1, CANCELLED: 0 });
  }, 30_000);
});
