/**
 * No console errors and no failed requests on any page of the checkout or the dashboard (issue 29):
 * every page a payer or a merchant opens is loaded in Chromium, and any `console.error`, uncaught
 * exception, failed request or answer of 400 or more fails the test (the login page's session probe
 * included: GET /v1/auth/session?probe=1 answers 204 when nobody is signed in, not 401).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { sharedChromium } from "../support/browser";
import { openMed, paidPayment, servedHarness, waitingPayment } from "./browser-support";
import { loginToken } from "../auth/support";
import { pdfText } from "../support/pdf";

setDefaultTimeout(60_000);

const { h, base } = servedHarness();
afterAll(() => h.app.stop(true));

/** Everything wrong a page did: console errors, exceptions, failed requests, 4xx/5xx answers. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`exception: ${String(e)}`));
  page.on("requestfailed", (r) => {
    // A download the page hands to the browser is "aborted" by design (the receipt link).
    if (r.failure()?.errorText !== "net::ERR_ABORTED")
      problems.push(`failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  return problems;
}

/** Lets the page's first requests (polls, lazy data) finish. */
const settle = (page: Page) => page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => {});

describe("zero console errors", () => {
  test("the watcher itself sees an answer of 404 and the console error it logs (so a clean page means clean)", async () => {
    const context = await (await sharedChromium()).newContext();
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${base}/c/${"0".repeat(32)}`);
    await page.evaluate(() => fetch("/v1/auth/session"));
    await settle(page);
    expect(problems.filter((p) => p.startsWith("HTTP 404: GET "))).toEqual([
      `HTTP 404: GET ${base}/c/${"0".repeat(32)}`,
    ]);
    expect(problems).toContain(`HTTP 401: GET ${base}/v1/auth/session`);
    expect(problems.some((p) => p.startsWith("console: Failed to load resource"))).toBe(true);
    await context.close();
  });

  test("on every checkout page: pending Pix, boleto, card and paid (the merchant's profile shown, the receipt link downloading the PDF)", async () => {
    const a = await h.seedAccount();
    const token = await loginToken(h, a.email, a.password);
    const profile = await h.call("PATCH", "/v1/account/profile", {
      bearer: token,
      body: { trade_name: "Loja Azul", legal_name: "Loja Azul Comércio de Roupas Ltda.", tax_id: "11222333000181" },
    });
    expect(profile.status).toBe(200);
    const pending = await waitingPayment(h, a, 1990, "Maria Souza");
    const paid = await paidPayment(h, a, 4990, "Maria Souza");
    const multi = await h.call("POST", "/v1/payments", {
      key: a.testKey,
      body: {
        amount: 12345,
        paymentMethods: ["BOLETO", "CREDIT_CARD", "PIX"],
        idempotencyKey: `console-${crypto.randomUUID()}`,
        customerName: "Maria Souza",
      },
    });
    expect(multi.status).toBe(201);
    const context = await (await sharedChromium()).newContext();
    const page = await context.newPage();
    const problems = watch(page);
    for (const id of [pending, multi.body.id, paid]) {
      await page.goto(`${base}/c/${id}`);
      await settle(page);
      expect({ id, problems }).toEqual({ id, problems: [] });
    }
    // The merchant's profile heads the page; the paid screen offers the receipt, whose PDF names both sides.
    expect(await page.textContent('[data-testid="merchant"]')).toBe("Loja Azul SANDBOX");
    expect(await page.textContent('[data-testid="merchant-tax-id"]')).toBe("CNPJ 11.222.333/0001-81");
    expect(await page.textContent('[data-testid="receipt"]')).toBe("Baixar comprovante");
    const pdf = await page.evaluate(async () => {
      const a = document.querySelector<HTMLAnchorElement>('[data-testid="receipt"]')!;
      const res = await fetch(a.href);
      return { type: res.headers.get("content-type"), bytes: [...new Uint8Array(await res.arrayBuffer())] };
    });
    expect(pdf.type).toBe("application/pdf");
    const lines = (await pdfText(new Uint8Array(pdf.bytes))).split("\n");
    for (const l of [
      "Nome: Loja Azul",
      "Razão social: Loja Azul Comércio de Roupas Ltda.",
      "CNPJ: 11.222.333/0001-81",
      "Nome: Maria Souza",
    ])
      expect(lines).toContain(l);
    // Paying from the page itself (sandbox): the page follows to the paid screen, still clean.
    await page.goto(`${base}/c/${pending}`);
    await page.click('[data-sandbox-pay="PIX"]');
    await page.waitForSelector('[data-testid="receipt"]', { timeout: 15_000 });
    await settle(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("on the login page and on every page of the dashboard", async () => {
    const a = await h.seedAccount({ name: "Loja Sem Erros" });
    const paid = await paidPayment(h, a, 2500, "Maria Souza");
    const medCase = await openMed(h, a, await paidPayment(h, a, 3000, "João da Silva"));
    const context = await (await sharedChromium()).newContext();
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${base}/dashboard`);
    await page.waitForSelector('input[name="email"]');
    await settle(page);
    expect({ page: "login", problems }).toEqual({ page: "login", problems: [] });
    await page.fill('input[name="email"]', a.email);
    await page.fill('input[name="password"]', a.password);
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-testid="account-name"]');
    for (const hash of [
      "#/",
      "#/payments",
      `#/payments/${paid}`,
      "#/payouts",
      "#/statement",
      "#/reconciliation",
      "#/med",
      `#/med/${medCase}`,
      "#/webhooks",
      "#/developers",
      "#/settings",
    ]) {
      await page.goto(`${base}/dashboard${hash}`);
      await page.waitForSelector("main > *");
      await settle(page);
      expect({ hash, problems }).toEqual({ hash, problems: [] });
    }
    await context.close();
  });
});
