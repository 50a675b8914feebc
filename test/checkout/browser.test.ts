/**
 * Real-browser checks of the hosted checkout: Debian chromium driven by playwright-core against a
 * real server on 127.0.0.1. Fails loudly (never skips) when /usr/bin/chromium is missing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { createHarness, type Harness } from "../support/harness";

const CHROMIUM = "/usr/bin/chromium";
let browser: Browser;
let h: Harness;
let key: string;
let base: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the checkout browser tests`);
  h = createHarness();
  h.app.listen({ port: 0, hostname: "127.0.0.1" });
  const port = h.app.server!.port;
  base = `http://127.0.0.1:${port}`;
  // The config object is shared by reference: URLs handed out from now on point at this server.
  h.deps.config.publicUrl = base;
  h.deps.config.checkoutUrlBase = `${base}/c`;
  key = (await h.seedAccount({ name: "Loja do Navegador" })).testKey;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

afterAll(async () => {
  await browser?.close();
  await h?.app.stop(true);
});

async function createCharge(body: Record<string, unknown>) {
  const res = await fetch(`${base}/v1/pix/charges`, {
    method: "POST",
    headers: { apikey: key, "idempotency-key": `browser-${crypto.randomUUID()}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as any;
}

describe("checkout in a real browser", () => {
  test("shows the BR Code and QR, and Simulate payment leads to the paid screen", async () => {
    const charge = await createCharge({ amount: 4590, description: "Livro" });
    expect(charge.checkout_url.startsWith(`${base}/c/`)).toBe(true);
    const page = await browser.newPage();
    try {
      await page.goto(charge.checkout_url);
      await expect(page.locator("h1").textContent()).resolves.toContain("45,90");
      const brCode = await page.getByTestId("br-code").inputValue();
      expect(brCode).toBe(charge.pix.br_code);
      const qrLoaded = await page.locator("img.qr").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
      expect(qrLoaded).toBe(true);
      await expect(page.locator("#countdown").textContent()).resolves.toMatch(/^(1:00:00|59:\d\d)$/);
      await page.getByRole("button", { name: "Simulate payment" }).click();
      await page.getByRole("heading", { name: "Pagamento confirmado" }).waitFor({ timeout: 10_000 });
      const api = await (await fetch(`${base}/v1/charges/${charge.id}`, { headers: { apikey: key } })).json();
      expect(api.status).toBe("paid");
    } finally {
      await page.close();
    }
  }, 30_000);

  test("a charge left to expire switches to the expired screen by itself", async () => {
    const charge = await createCharge({ amount: 1000, expires_in: 60 });
    const page = await browser.newPage();
    try {
      await page.goto(charge.checkout_url);
      await page.getByRole("button", { name: "Simulate payment" }).waitFor();
      h.clock.advance(61);
      await h.deps.jobs.drain();
      await page.getByRole("heading", { name: "Cobrança expirada" }).waitFor({ timeout: 10_000 });
      expect(await page.getByRole("button", { name: "Simulate payment" }).count()).toBe(0);
    } finally {
      await page.close();
    }
  }, 30_000);
});
