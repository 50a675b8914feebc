/**
 * The dashboard's header fits (issue 29): one line at 1280 px with every section link visible,
 * three short lines on a 390 px phone (account and sign-out; mode and language; the section links,
 * which scroll sideways), and the page itself never scrolls sideways. Measured in Chromium, in Portuguese (the longer
 * words).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { servedHarness, signIn } from "./browser-support";

const { h, base } = servedHarness();
afterAll(() => h.app.stop(true));

async function measure(width: number, height: number) {
  const a = await h.seedAccount({
    name: "Loja Azul Comércio de Roupas",
    email: `header-${width}-${crypto.randomUUID().slice(0, 8)}@lojaazul.com.br`,
  });
  const tab = await signIn(base, a.email, a.password, { width, height });
  const m = await tab.page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>("header.bar")!;
    const nav = bar.querySelector("nav")!;
    const line = parseFloat(getComputedStyle(document.body).lineHeight) || 22;
    return {
      height: bar.getBoundingClientRect().height,
      line,
      navFits: nav.scrollWidth <= nav.clientWidth + 1,
      pageWidth: document.documentElement.scrollWidth,
    };
  });
  await tab.context.close();
  return m;
}

describe("the dashboard header", () => {
  test("at 1280 px it is one line and shows every section link", async () => {
    const m = await measure(1280, 800);
    expect(m.pageWidth).toBeLessThanOrEqual(1280);
    expect(m.height).toBeLessThanOrEqual(60);
    expect(m.navFits).toBe(true);
  }, 30_000);

  test("at 390 px it is three short lines and the page does not scroll sideways", async () => {
    const m = await measure(390, 844);
    expect(m.pageWidth).toBeLessThanOrEqual(390);
    expect(m.height).toBeLessThanOrEqual(125);
  }, 30_000);
});
