/**
 * A live card paid through the hosted pages in Chromium (issue 26 §5) against `cofre stripe-sim`:
 * the checkout page `/c/<id>` offers "Pagar com cartão", which sends the payer to the Checkout
 * Session's page; the card typed there pays (4242), is declined (0002: the payment stays payable)
 * or asks for 3-D Secure (3184); back on the checkout page the outcome shows in pt-BR once
 * Stripe's signed event was confirmed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { seriousViolations, sharedChromium } from "../support/browser";
import { eventsTaken, livePayment, startCardEnv, txRow, type CardEnv } from "./support";

let env: CardEnv;
let context: BrowserContext;
let page: Page;
beforeAll(async () => {
  env = await startCardEnv();
  context = await (await sharedChromium()).newContext({ bypassCSP: true });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await env.stop();
});

const status = async (id: string) => (await txRow(env, id))!.status;

/** Creates a live card payment and opens its checkout page; returns its id. */
async function openCheckout(amount = 2590): Promise<string> {
  const r = await livePayment(env, { amount, metadata: { description: "Camiseta" } });
  expect(r.status).toBe(201);
  await page.goto(`${env.base}/c/${r.body.id}`);
  return r.body.id;
}

/** Clicks "Pagar com cartão" and types `number` on the session's page. */
async function payOnHostedPage(number: string) {
  await page.getByRole("link", { name: "Pagar com cartão" }).click();
  await page.waitForURL(new RegExp(`^${env.sim.origin}/pay/cs_`));
  await page.fill("#number", number);
  await page.fill("#exp", "12/34");
  await page.fill("#cvc", "123");
  await page.fill("#name", "MARIA PAGADORA");
  await page.click("#pay");
}

/** Drains Cofre's jobs until the checkout page shows final state `state`. */
async function waitForScreen(state: string) {
  await env.settle(async () => (await page.locator(`[data-state="${state}"]`).count()) > 0, 15_000);
}

describe("the hosted card page", () => {
  test("a card that pays returns the payer to the checkout, which shows Pagamento confirmado once APPROVED", async () => {
    const id = await openCheckout();
    await payOnHostedPage("4242 4242 4242 4242");
    await page.waitForURL(`${env.base}/c/${id}?retorno=1`);
    await env.settle(async () => (await status(id)) === "APPROVED");
    await waitForScreen("paid");
    expect(await page.locator("h2").first().textContent()).toBe("Pagamento confirmado");
  }, 30_000);

  test("the live card section has no serious accessibility violation", async () => {
    await openCheckout();
    expect(await seriousViolations(page)).toEqual([]);
  }, 30_000);

  test("a declined card shows Cartão recusado at the session, and the payment stays payable", async () => {
    const id = await openCheckout();
    const taken = await eventsTaken(env, "payment_intent.payment_failed");
    await payOnHostedPage("4000 0000 0000 0002");
    await page.getByText("Cartão recusado").first().waitFor();
    // Stripe's event of the decline is taken and confirmed (the session is still open): nothing changes.
    await env.settle(async () => (await eventsTaken(env, "payment_intent.payment_failed")) > taken);
    expect(await status(id)).toBe("WAITING_PAYMENT");
    await page.goto(`${env.base}/c/${id}`);
    expect(await page.getByRole("link", { name: "Pagar com cartão" }).count()).toBe(1);
  }, 30_000);

  test("a card with 3-D Secure pays once the challenge is approved", async () => {
    const id = await openCheckout();
    await payOnHostedPage("4000 0027 6000 3184");
    await page.waitForURL(/\/3ds$/);
    await page.click("#approve");
    await page.waitForURL(`${env.base}/c/${id}?retorno=1`);
    await env.settle(async () => (await status(id)) === "APPROVED");
    await waitForScreen("paid");
  }, 30_000);
});
