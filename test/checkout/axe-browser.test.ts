/**
 * Accessibility of the hosted checkout (issue 13 section 3): axe-core, injected into Debian
 * chromium (test/support/browser.ts) in a context that bypasses the page's CSP, reports no
 * serious or critical violation on the page of each method and on the final screens.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { createHarness, type Harness } from "../support/harness";
import { launchChromium } from "../support/browser";

const AXE = require.resolve("axe-core/axe.min.js");
let browser: Browser;
let context: BrowserContext;
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
  browser = await launchChromium();
  context = await browser.newContext({ bypassCSP: true });
});

afterAll(async () => {
  await browser?.close();
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
  post("/v1/payments", { amount: 123456, paymentMethods: methods, idempotencyKey: `axe-${crypto.randomUUID()}`, metadata: { description: "Pedido 99" }, customerName: "Ana Souza", ...extra });

/** Serious and critical axe violations of the page at `path`, as `rule: targets`. */
async function seriousViolations(path: string, state: string, plant?: () => void): Promise<string[]> {
  const page = await context.newPage();
  try {
    await page.goto(`${base}${path}`);
    expect(await page.locator("[data-state]").first().getAttribute("data-state")).toBe(state);
    if (plant) await page.evaluate(plant);
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate(async () => {
      const r = await (window as any).axe.run(document, { resultTypes: ["violations"] });
      return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n: any) => n.target.join(" ")) }));
    });
    return violations.filter((v: any) => v.impact === "serious" || v.impact === "critical").map((v: any) => `${v.id}: ${v.targets.join(", ")}`);
  } finally {
    await page.close();
  }
}

describe("axe-core on the checkout", () => {
  test("the check catches a planted violation (the QR without its alt text)", async () => {
    const p = await payment(["PIX"]);
    const found = await seriousViolations(`/c/${p.id}`, "pending", () => document.querySelector("img.qr")!.removeAttribute("alt"));
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
