/**
 * A delivery's attempts on the payment detail in Chromium (issue 15, deliveries with attempts):
 * the endpoint answered 500 with a hostile body, then 200; opening the attempts shows both, the
 * hostile body as text (no markup, no script run).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Harness, SeededAccount } from "../support/harness";
import { deterministic } from "../webhooks/support";
import { endpoint, paidPayment, servedHarness, signIn, visit, type Tab } from "./browser-support";

const HOSTILE = `<img src=x onerror="window.__xss=6"><script>window.__xss=7</script>\u202eupstream down`;

let h: Harness;
let tab: Tab | undefined;
let base: string;
let a: SeededAccount;
let receiver: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  ({ h, base } = servedHarness({ webhookAllowPrivate: true }));
  deterministic(h);
  a = await h.seedAccount({ name: "Padaria das Tentativas" });
  let n = 0;
  receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => (n++ === 0 ? new Response(HOSTILE, { status: 500 }) : new Response("recebido")),
  });
}, 60_000);

afterAll(async () => {
  await tab?.context.close();
  receiver?.stop(true);
  await h?.app.stop(true);
});

describe("delivery attempts in the browser", () => {
  test("the payment detail lists each attempt of a delivery and renders a hostile response body as text", async () => {
    await endpoint(h, a.testKey, `http://127.0.0.1:${receiver.port}/hook`);
    const paymentId = await paidPayment(h, a, 1500, "Cliente Tentativa");
    await h.deps.jobs.drain();
    h.clock.advance(5);
    await h.deps.jobs.drain();
    const d = (await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paymentId}`, { key: a.testKey })).body
      .data[0];
    expect(d).toMatchObject({ status: "DELIVERED", attempts: 2 });
    tab = await signIn(base, a.email, a.password);
    const { page, errors } = tab;
    await visit(page, base, `#/payments/${paymentId}`, `table.deliveries tr[data-id="${d.id}"] details.attempts`);
    await page.click(`table.deliveries tr[data-id="${d.id}"] details.attempts summary`);
    await page.waitForSelector(`table.deliveries tr[data-id="${d.id}"] details.attempts li[data-attempt="2"]`);
    const items = page.locator(`table.deliveries tr[data-id="${d.id}"] details.attempts li`);
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).locator("pre").textContent()).toBe(HOSTILE);
    expect(await items.nth(0).textContent()).toMatch(/^\S+ \S+ · HTTP 500 · \d+ ms · HTTP 500</);
    expect(await items.nth(1).locator("pre").textContent()).toBe("recebido");
    expect(await items.nth(1).textContent()).toMatch(/ · HTTP 200 · \d+ ms(recebido)$/);
    expect(await page.locator("details.attempts img, details.attempts script").count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(errors).toEqual([]);
  }, 60_000);
});
