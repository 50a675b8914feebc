/**
 * /docs renders in a real browser with every request outside this server blocked (it must work
 * offline). Needs Chromium (installed by .ci/run); fails loudly when none is found, never skips.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { foundationHarness } from "./fixtures";

const executablePath = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => existsSync(p));
const h = foundationHarness();
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  await h.app.stop();
});

describe("the API reference offline", () => {
  test("has a Chromium to run in (apt-get install -y chromium)", () => {
    expect(executablePath).toBeDefined();
  });

  test("renders the documented routes with no request leaving the server", async () => {
    h.app.listen({ port: 0, hostname: "127.0.0.1" });
    const base = `http://127.0.0.1:${h.app.server!.port}`;
    if (!executablePath) throw new Error("Chromium is missing: apt-get install -y chromium");
    browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
    const page = await browser.newPage();
    const external: string[] = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(base) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
      external.push(url);
      return route.abort();
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${base}/docs`);
    await page.getByText("Readiness").first().waitFor({ timeout: 15_000 });
    const text = await page.evaluate(() => document.body.innerText);
    for (const s of ["Liveness", "Readiness", "ping"]) expect(text).toContain(s);
    expect(external).toEqual([]);
    expect(errors).toEqual([]);
  }, 30_000);
});
