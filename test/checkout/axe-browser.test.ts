/**
 * Accessibility of the hosted checkout (issue 13 section 3): axe-core, injected into Debian
 * chromium (test/support/browser.ts) in a context that bypasses the page's CSP, reports no
 * serious or critical violation on the page of each method and on the final screens. One page
 * opens every checkout in turn (each a full load; axe-core comes from the context's cache).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { createHarness, type Harness } from "../support/harness";
import { seriousViolations as axeViolations, sharedChromium } from "../support/browser";

let context: BrowserContext;
let page: Page;
let h: Harness;
let key: string;
let base: string;

beforeAll(async () => {
  h = createHarness();
  h.app.listen({ port: 0, hostname: "127.0.0.1" });
  base = `http://127.0.0.1:${h.app.server!.port}`;
  h.deps.config.publicUrl = base;
  h.deps.config.checkoutUrlBase = `${base}/c`;
  key = (await h.seedAccount({ name: "Loja Acessível" })).testKey;
  context = await (await sharedChromium()).newContext({ bypassCSP: true });
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await h?.app.stop(true);
});

async function post(path: string, body: Record<string, unknown>) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { apikey: key, "idempotency-key": `axe-${crypto.randomUUID()}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  expect(res.status).toBeLessThan(300);
  return json;
}
const payment = (methods: string[], extra: Record<string, unknown> = {}) =>
  post("/v1/payments", {
    amount: 123456,
    paymentMethods: methods,
    idempotencyKey: `axe-${crypto.randomUUID()}`,
    metadata: { description: "Pedido 99" },
    customerName: "Ana Souza",
    ...extra,
  });

/** Serious and critical axe violations of the page at `path`, as `rule: targets`. */
async function seriousViolations(path: string, state: string, plant?: () => void): Promise<string[]> {
  await page.goto(`${base}${path}`);
  expect(await page.locator("[data-state]").first().getAttribute("data-state")).toBe(state);
  if (plant) await page.evaluate(plant);
  return axeViolations(page);
}

describe("axe-core on the checkout", () => {
  test("the check catches a planted violation (the QR without its alt text)", async () => {
    const p = await payment(["PIX"]);
    const found = await seriousViolations(`/c/${p.id}`, "pending", () =>
      document.querySelector("img.qr")!.removeAttribute("alt"),
    );
    expect(found).toEqual(["image-alt: img"]);
  }, 30_000);

  const METHODS: [string, string[], Record<string, unknown>][] = [
    ["PIX", ["PIX"], {}],
    ["BOLETO", ["BOLETO"], {}],
    ["CREDIT_CARD", ["CREDIT_CARD"], {}],
    ["CRYPTO", ["CRYPTO"], {}],
    ["MULTIBANCO", ["MULTIBANCO"], { currency: "EUR" }],
    ["MBWAY", ["MBWAY"], { currency: "EUR", metadata: { phone: "+351912345678" } }],
    ["every Brazilian method at once", ["PIX", "BOLETO", "CREDIT_CARD", "CRYPTO"], {}],
  ];
  for (const [name, methods, extra] of METHODS)
    test(`the ${name} page has no serious or critical violation`, async () => {
      const p = await payment(methods, extra);
      expect(await seriousViolations(`/c/${p.id}`, "pending")).toEqual([]);
    }, 30_000);

  test("the paid, expired, failed and not-found screens have no serious or critical violation", async () => {
    const paid = await post("/v1/pix/charges", { amount: 1000, description: "Pedido 1" });
    await post(`/v1/test_helpers/charges/${paid.id}/pay`, {});
    const failed = await post("/v1/pix/charges", { amount: 1000 });
    await post(`/v1/test_helpers/charges/${failed.id}/pay`, { outcome: "decline" });
    const expired = await post("/v1/pix/charges", { amount: 1000, expires_in: 60 });
    h.clock.advance(61);
    await h.deps.jobs.drain();
    const raw = (c: any) => c.id.slice(3);
    const found = {
      paid: await seriousViolations(`/c/${raw(paid)}`, "paid"),
      expired: await seriousViolations(`/c/${raw(expired)}`, "expired"),
      failed: await seriousViolations(`/c/${raw(failed)}`, "failed"),
      not_found: await seriousViolations("/c/0123456789abcdef0123456789abcdef", "not_found"),
    };
    expect(found).toEqual({ paid: [], expired: [], failed: [], not_found: [] });
  }, 90_000);
});
