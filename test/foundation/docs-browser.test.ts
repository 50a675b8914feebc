/**
 * /docs renders in a real browser with every request outside this server blocked (it must work
 * offline). Chromium comes from test/support/browser.ts, which fails loudly when it is missing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext } from "playwright-core";
import { sharedChromium } from "../support/browser";
import { foundationHarness } from "./fixtures";

const h = foundationHarness();
let context: BrowserContext | undefined;
// Outside the test: a test that times out has the processes it started killed, and the browser is shared.
beforeAll(async () => {
  context = await (await sharedChromium()).newContext();
});
afterAll(async () => {
  await context?.close();
  await h.app.stop();
});

describe("the API reference offline", () => {
  test("renders the documented routes with no request leaving the server", async () => {
    h.app.listen({ port: 0, hostname: "127.0.0.1" });
    const base = `http://127.0.0.1:${h.app.server!.port}`;
    const page = await context!.newPage();
    const external: string[] = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(base) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
      external.push(url);
      return route.abort();
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // Everything the page's Content-Security-Policy blocked (issue 30 §3: /docs has its own CSP).
    await page.addInitScript(() => {
      const w = window as unknown as { cspViolations: string[] };
      w.cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const res = await page.goto(`${base}/docs`);
    expect(res!.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    await page.getByText("Readiness").first().waitFor({ timeout: 15_000 });
    const text = await page.evaluate(() => document.body.innerText);
    for (const s of ["Liveness", "Readiness", "ping"]) expect(text).toContain(s);
    expect(external).toEqual([]);
    expect(errors).toEqual([]);
    // The one blocked attempt allowed: zod's feature probe `try { Function("") } catch {}` (it then
    // validates without generated code); nothing else the page loads or runs is refused.
    const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    expect(violations.filter((v) => v !== "script-src eval")).toEqual([]);
  }, 30_000);
});
