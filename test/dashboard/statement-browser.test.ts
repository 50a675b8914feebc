/**
 * The "Extrato" page in Chromium (issue 27 §4; extensions.md "Statement, exports and
 * reconciliation"): the wallet's lines newest first in pt-BR with their running total, pages by
 * cursor (older / newer), a period filter in São Paulo days, the period downloaded as CSV and OFX
 * through the session (files read back with csv-parse and ofx-js), the live mode empty, and
 * axe-core finding no serious violation.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { parse as parseCsv } from "csv-parse/sync";
import { parseSync as parseOfx } from "ofx-js";
import type { Harness, SeededAccount } from "../support/harness";
import { seriousViolations, sharedChromium } from "../support/browser";
import { servedHarness, signIn, visit, type Tab } from "./browser-support";
import { allLines, charge, endPayout, payoutPosted } from "../statement/support";

let h: Harness;
let base: string;
let a: SeededAccount;
let owner: Tab;

/** Centavos as the merchant reads them, built by hand (an oracle independent of Intl): -123456 -> "-R$ 1.234,56". */
function brl(cents: number): string {
  const abs = Math.abs(cents);
  const int = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${cents < 0 ? "-" : ""}R$ ${int},${String(abs % 100).padStart(2, "0")}`;
}

beforeAll(async () => {
  ({ h, base } = servedHarness({}, "2026-11-18T15:00:00.000Z"));
  a = await h.seedAccount({ name: "Padaria do Extrato", settings: { settlementDelaySeconds: 0 } });
  const w = { h, a };
  // 2026-11-18 (São Paulo): 26 charges with a fee (52 lines); 2026-11-19: a payout that failed (3 lines).
  for (let i = 1; i <= 26; i++) {
    await charge(w, 10_000 + i, 99);
    h.clock.advance(60);
  }
  h.clock.advance(86_400);
  const po = await payoutPosted(w, 123_456, 150);
  h.clock.advance(60);
  await endPayout(w, po, "reversed");
  owner = await signIn(base, a.email, a.password);
}, 60_000);

afterAll(async () => {
  await owner?.context.close();
  await h?.app.stop(true);
});

describe("the Extrato page in the browser", () => {
  test("the lines show newest first in pt-BR with their running total, and pages go older and back", async () => {
    const { page, errors } = owner;
    const lines = await allLines(h, a.testKey);
    expect(lines).toHaveLength(55);
    await visit(page, base, "#/statement", "table.statement-lines tbody tr");
    expect(await page.textContent("main h1")).toBe("Extrato");
    expect(await page.textContent('nav[aria-label="Cofre"] a[aria-current="page"]')).toBe("Extrato");
    const rows = page.locator("table.statement-lines tbody tr");
    expect(await rows.count()).toBe(50);
    const first = rows.nth(0);
    expect(await first.getAttribute("data-id")).toBe(lines[0].id);
    expect(await first.locator(".type").textContent()).toBe("Estorno de saque");
    expect(await first.locator(".amount").textContent()).toBe(brl(123_456 + 150));
    expect(await first.locator(".balance").textContent()).toBe(brl(lines[0].balance_after));
    expect(await first.locator(".ref a").getAttribute("href")).toBe(`#/payouts/${lines[0].reference_id}`);
    expect(await rows.nth(4).locator(".ref a").getAttribute("href")).toBe(`#/payments/${lines[4].reference_id}`);
    expect(await rows.nth(1).locator(".type").textContent()).toBe("Tarifa de saque");
    expect(await rows.nth(1).locator(".amount").textContent()).toBe(brl(-150));
    expect(await rows.nth(2).locator(".type").textContent()).toBe("Saque");
    expect(await rows.nth(2).locator(".balance").textContent()).toBe(brl(lines[2].balance_after));
    expect(await rows.nth(3).locator(".type").textContent()).toBe("Tarifa");
    expect(await rows.nth(4).locator(".type").textContent()).toBe("Recebimento");

    await page.click('nav.pager button:has-text("Mais antigos")');
    await page.waitForSelector(`table.statement-lines tr[data-id="${lines[50]!.id}"]`);
    expect(await rows.count()).toBe(5);
    expect(await page.locator('nav.pager button:has-text("Mais antigos")').isDisabled()).toBe(true);
    expect(await rows.last().locator(".type").textContent()).toBe("Recebimento");
    expect(await rows.last().locator(".balance").textContent()).toBe(brl(10_001));
    await page.click('nav.pager button:has-text("Mais recentes")');
    await page.waitForSelector(`table.statement-lines tr[data-id="${lines[0]!.id}"]`);
    expect(await rows.count()).toBe(50);
    expect(errors).toEqual([]);
  }, 60_000);

  test("a period filter shows that period's lines, and the period downloads as CSV and OFX", async () => {
    const { page, errors } = owner;
    await visit(page, base, "#/statement", "table.statement-lines tbody tr");
    await page.fill('input[name="from"]', "2026-11-19");
    await page.fill('input[name="to"]', "2026-11-19");
    await page.click('form.filters button[type="submit"]');
    await page.waitForFunction(() => document.querySelectorAll("table.statement-lines tbody tr").length === 3);
    const period = await allLines(h, a.testKey, "from=2026-11-19&to=2026-11-19");
    expect(
      await page
        .locator("table.statement-lines tbody tr")
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-id"))),
    ).toEqual(period.map((l) => l.id));

    const [csv] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="download-csv"]')]);
    expect(csv.suggestedFilename()).toBe("extrato-2026-11-19-2026-11-19.csv");
    const rows: any[] = parseCsv(await readFile((await csv.path())!, "utf8"), { columns: true });
    expect(rows.map((r) => [r.id, Number(r.amount), Number(r.balance_after)])).toEqual(
      period.map((l) => [l.id, l.amount, l.balance_after]),
    );

    const [ofxFile] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="download-ofx"]')]);
    expect(ofxFile.suggestedFilename()).toBe("extrato-2026-11-19-2026-11-19.ofx");
    const stmt = parseOfx(await readFile((await ofxFile.path())!, "utf8")).OFX.BANKMSGSRSV1.STMTTRNRS.STMTRS;
    const trns = stmt.BANKTRANLIST.STMTTRN as any[];
    expect(trns.map((t) => [t.FITID, t.TRNTYPE, t.TRNAMT])).toEqual(
      period.map((l) => [l.id, l.amount < 0 ? "DEBIT" : "CREDIT", (l.amount / 100).toFixed(2)]),
    );
    expect(stmt.LEDGERBAL.BALAMT).toBe((period[0].balance_after / 100).toFixed(2));

    await page.fill('input[name="from"]', "2026-11-20");
    await page.fill('input[name="to"]', "2026-11-20");
    await page.click('form.filters button[type="submit"]');
    await page.waitForSelector("p.empty");
    expect(await page.textContent("p.empty")).toBe("Nenhum lançamento no período.");
    expect(errors).toEqual([]);
  }, 60_000);

  test("the live mode shows an empty statement", async () => {
    const { page, errors } = owner;
    await visit(page, base, "#/statement", "table.statement-lines tbody tr");
    await page.check('fieldset.modes input[value="live"]');
    await page.waitForSelector("p.empty");
    expect(await page.locator("table.statement-lines").count()).toBe(0);
    await page.check('fieldset.modes input[value="test"]');
    await page.waitForSelector("table.statement-lines tbody tr");
    expect(errors).toEqual([]);
  }, 60_000);

  test("axe-core reports no serious or critical violation on the Extrato page", async () => {
    const context = await (await sharedChromium()).newContext({ bypassCSP: true });
    const page = await context.newPage();
    let found: string[] = [];
    try {
      await page.goto(`${base}/dashboard#/statement`);
      await page.fill('input[name="email"]', a.email);
      await page.fill('input[name="password"]', a.password);
      await page.click('button[type="submit"]');
      await page.waitForSelector("table.statement-lines tbody tr");
      found = await seriousViolations(page);
    } finally {
      await context.close();
    }
    expect(found).toEqual([]);
  }, 60_000);
});
