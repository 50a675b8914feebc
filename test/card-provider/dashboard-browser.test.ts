/**
 * Live cards in the dashboard (issue 26 §4) in Chromium against `cofre stripe-sim`: a card payment
 * shows its brand and last four in the list and the detail, a disputed one its dispute status, the
 * MED page lists the dispute with its type, and Settings shows the card connection's status with
 * no secret.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { signIn, type Tab } from "../dashboard/browser-support";
import { livePayment, startCardEnv, txRow, type CardEnv } from "./support";

let env: CardEnv;
let tab: Tab;
let page: Page;
let paidId: string;
let disputedId: string;

/** A live card payment of `amount` paid with `card`; its id. */
async function paidCard(amount: number, card = "4242424242424242"): Promise<string> {
  const r = await livePayment(env, { amount });
  const session = JSON.parse((await txRow(env, r.body.id))!.methodDetails).CREDIT_CARD.session;
  await env.control("POST", `/_sim/checkout/sessions/${session}/pay`, { card });
  await env.settle(async () => (await txRow(env, r.body.id))!.status === "APPROVED");
  return r.body.id;
}

beforeAll(async () => {
  env = await startCardEnv();
  paidId = await paidCard(1990);
  disputedId = await paidCard(2990, "4000000000000259");
  const pi = JSON.parse((await txRow(env, disputedId))!.methodDetails).CREDIT_CARD.paymentIntent;
  await env.control("POST", `/_sim/payment_intents/${pi}/dispute`, {});
  await env.settle(async () => (await txRow(env, disputedId))!.status === "DISPUTE");
  tab = await signIn(env.base, env.account.email, env.account.password);
  page = tab.page;
  await page.check('input[name="mode"][value="live"]');
});
afterAll(async () => {
  await tab?.context.close();
  await env.stop();
});

describe("the dashboard in live mode", () => {
  test("the payments list shows the card's brand and last four", async () => {
    await page.goto(`${env.base}/dashboard#/payments`);
    const row = page.locator(`tr[data-id="${paidId}"]`);
    await row.waitFor();
    expect(await row.locator(".card-last4").textContent()).toBe(" · visa •••• 4242");
  });

  test("the payment detail shows the card, and a disputed payment its dispute status", async () => {
    await page.goto(`${env.base}/dashboard#/payments/${paidId}`);
    await page.locator('[data-testid="card"]').waitFor();
    expect(await page.locator('[data-testid="card"]').textContent()).toBe("visa •••• 4242");
    await page.goto(`${env.base}/dashboard#/payments/${disputedId}`);
    await page.locator('[data-testid="dispute"]').waitFor();
    expect(await page.locator('[data-testid="dispute"]').textContent()).toBe("Em disputa (valor retido)");
  });

  test("the MED page lists the dispute with its type", async () => {
    await page.goto(`${env.base}/dashboard#/med`);
    await page.locator('[data-testid="case-type"]').first().waitFor();
    // Shown in pt-BR (labels.tsx), the raw type behind it for developers.
    expect(await page.locator('[data-testid="case-type"]').allTextContents()).toEqual(["Disputa"]);
    expect(await page.locator('[data-testid="case-type"] [data-code]').getAttribute("data-code")).toBe("dispute");
  });

  test("Settings shows the card connection's account and key ending, never the key", async () => {
    await page.goto(`${env.base}/dashboard#/settings`);
    await page.locator('[data-testid="card-key"]').waitFor();
    expect(await page.locator('[data-testid="card-key"]').textContent()).toBe(`•••• ${env.sim.secretKey.slice(-4)}`);
    expect(await page.locator('[data-testid="card-account"]').textContent()).toBe(env.sim.accountId);
    expect(await page.content()).not.toContain(env.sim.secretKey);
    expect(tab.errors).toEqual([]);
  });
});
