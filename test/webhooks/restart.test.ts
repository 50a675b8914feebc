import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Deps } from "../../src/deps";
import { emitCanonical } from "../../src/domain/events/emit";
import { createEndpoint } from "../../src/domain/webhooks/service";
import { configureWebhookRuntime } from "../../src/domain/webhooks/runtime";
import { ManualClock } from "../../src/lib/clock";
import { startReceiver, type Receiver } from "./support";
import { testDeps } from "../support/backend";
import { testDb } from "../support/test-db";

const cleanup: (() => void)[] = [];
afterEach(() => {
  while (cleanup.length) cleanup.pop()!();
});

function open(dir: string, clock: ManualClock): Deps {
  const deps = testDeps({ dataDir: dir, clock, config: { logLevel: "silent", webhookAllowPrivate: true } });
  configureWebhookRuntime(deps, { random: () => 0.5, timeoutMs: 2000 });
  return deps;
}

describe("webhook delivery survives a crash", () => {
  test("an event committed before the process died is delivered after restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cofre-wh-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const rx: Receiver = startReceiver();
    cleanup.push(() => rx.stop());
    const clock = new ManualClock(new Date().toISOString());
    const scope = { accountId: "acct_crash", livemode: false };

    const first = open(dir, clock);
    const ep = await createEndpoint(first, scope, { url: rx.url, events: ["charge.paid"] });
    const evt = await first.store.tx((uow) =>
      emitCanonical(first, uow, scope, "charge.paid", { id: "ch_1", object: "charge" }),
    );
    await first.store.close(); // "killed": no job ever ran
    expect(rx.requests).toHaveLength(0);

    const second = open(dir, clock);
    cleanup.push(() => void second.jobs.stop());
    second.jobs.start();
    await second.jobs.drain();
    for (let i = 0; i < 500 && rx.requests.length === 0; i++) await Bun.sleep(10);
    expect(rx.requests).toHaveLength(1);
    expect(JSON.parse(rx.requests[0]!.body).id).toBe(evt);
    const id = (await testDb(second).get<{ id: string }>("select id from webhook_deliveries"))!.id;
    for (let i = 0; i < 500 && (await second.store.read.webhooks.deliveryById(id))!.status !== "DELIVERED"; i++)
      await Bun.sleep(10);
    expect(await second.store.read.webhooks.deliveryById(id)).toMatchObject({
      status: "DELIVERED",
      attempts: 1,
      endpointId: ep.id,
    });
  });

  test("an attempt interrupted mid-flight is recorded as interrupted and sent again once its lease expires", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cofre-wh-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const rx = startReceiver();
    cleanup.push(() => rx.stop());
    const clock = new ManualClock(new Date().toISOString());
    const scope = { accountId: "acct_crash", livemode: false };
    const first = open(dir, clock);
    await createEndpoint(first, scope, { url: rx.url, events: ["charge.paid"] });
    await first.store.tx((uow) => emitCanonical(first, uow, scope, "charge.paid", { id: "ch_1" }));
    const db = testDb(first);
    const id = (await db.get<{ id: string }>("select id from webhook_deliveries"))!.id;
    // Simulate death after the claim committed: the job is leased and the delivery is PROCESSING.
    await db.run(
      "update jobs set lease_until = ?, attempts = 1 where kind = 'webhook.deliver'",
      clock.nowMs() + 90_000,
    );
    await db.run("update webhook_deliveries set status = 'PROCESSING', attempts = 1 where id = ?", id);
    await db.run(
      "insert into webhook_attempts (id, delivery_id, attempt, trigger, status, started_at) values ('a1', ?, 1, 'scheduled', 'sending', ?)",
      id,
      clock.nowMs(),
    );
    await first.store.close();

    const second = open(dir, clock);
    await second.jobs.drain();
    expect(rx.requests).toHaveLength(0);
    clock.advance(91);
    await second.jobs.drain();
    expect(rx.requests).toHaveLength(1);
    expect(await second.store.read.webhooks.deliveryById(id)).toMatchObject({ status: "DELIVERED", attempts: 2 });
    const attempts = await testDb(second).all(
      "select attempt, status, outcome from webhook_attempts where delivery_id = ? order by attempt",
      id,
    );
    expect(attempts).toEqual([
      { attempt: 1, status: "failed", outcome: "interrupted" },
      { attempt: 2, status: "succeeded", outcome: "delivered" },
    ]);
  });
});
