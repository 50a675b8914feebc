/**
 * The "Conciliação" page in Chromium (issue 27 §4; extensions.md "Statement, exports and
 * reconciliation"): in live mode the stored days of the last 30, newest first, in pt-BR with
 * their status, both sides' totals and each day's differences (a healed Pix marked); a day
 * reconciled from the form answers the API's error when the account has no connection; test mode
 * shows a notice and asks nothing; axe-core finds no serious violation. The days are stored
 * through the repository as the job stores them (the comparison itself is tested against psp-sim
 * in test/reconciliation).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Harness, SeededAccount } from "../support/harness";
import { seriousViolations, sharedChromium } from "../support/browser";
import { servedHarness, signIn, visit, type Tab } from "./browser-support";
import type { PublicReconciliation } from "../../src/domain/reconciliation/views";

let h: Harness;
let base: string;
let a: SeededAccount;
let owner: Tab;

const E2E_PSP = "E99999999202611191200ABCDEFGHIJK";
const E2E_HEALED = "E99999999202611191300ABCDEFGHIJL";

function day(date: string, differences: PublicReconciliation["differences"]): PublicReconciliation {
  const totals = { received: { count: 2, amount: 123_456 }, sent: { count: 1, amount: 5_000 } };
  return {
    object: "reconciliation",
    date,
    status: differences.length ? "mismatched" : "matched",
    psp: totals,
    cofre: totals,
    differences,
    reconciled_at: `${date}T12:00:00.000Z`,
  };
}

beforeAll(async () => {
  ({ h, base } = servedHarness({}, "2026-11-20T15:00:00.000Z"));
  a = await h.seedAccount({ name: "Loja da Conciliação" });
  const days = [
    day("2026-11-18", []),
    day("2026-11-19", [
      {
        kind: "missing_in_cofre",
        end_to_end_id: E2E_PSP,
        reference_id: null,
        psp_amount: 700,
        cofre_amount: null,
        healed: false,
      },
      {
        kind: "missing_in_cofre",
        end_to_end_id: E2E_HEALED,
        reference_id: "ch_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a",
        psp_amount: 1500,
        cofre_amount: null,
        healed: true,
      },
      {
        kind: "amount_differs",
        end_to_end_id: null,
        reference_id: "po_0193a6f2c1d87c4e9b1a2f3e4d5c6b7b",
        psp_amount: 410,
        cofre_amount: 400,
        healed: false,
      },
    ]),
    // Older than 30 days: not listed.
    day("2026-10-01", []),
  ];
  for (const d of days)
    await h.deps.store.tx(async (uow) => {
      await uow.reconciliation.saveResult({
        accountId: a.accountId,
        date: d.date,
        connectionId: "ppc_test",
        status: d.status,
        result: JSON.stringify(d),
        createdAt: 0,
        updatedAt: 0,
      });
    });
  owner = await signIn(base, a.email, a.password);
}, 60_000);

afterAll(async () => {
  await owner?.context.close();
  await h?.app.stop(true);
});

describe("the Conciliação page in the browser", () => {
  test("test mode shows that reconciliation is live only, and asks the API nothing", async () => {
    const { page, errors } = owner;
    const asked: string[] = [];
    const onRequest = (r: { url(): string }) => void (r.url().includes("/v1/reconciliation") && asked.push(r.url()));
    page.on("request", onRequest);
    await visit(page, base, "#/reconciliation", "section.reconciliation p.notice");
    page.off("request", onRequest);
    expect(asked).toEqual([]);
    expect(await page.textContent("main h1")).toBe("Conciliação");
    expect(await page.textContent('nav[aria-label="Cofre"] a[aria-current="page"]')).toBe("Conciliação");
    expect(await page.textContent("section.reconciliation p.notice")).toBe(
      "A conciliação compara o modo Produção com o PSP: mude para Produção para vê-la.",
    );
    expect(await page.locator("table.reconciliation-days").count()).toBe(0);
    expect(errors).toEqual([]);
  }, 60_000);

  test("live mode lists the last 30 days newest first with status, totals and each day's differences", async () => {
    const { page, errors } = owner;
    await page.check('fieldset.modes input[value="live"]');
    await page.waitForSelector("table.reconciliation-days tbody tr");
    const rows = page.locator("table.reconciliation-days > tbody > tr");
    expect(await rows.count()).toBe(2);
    expect([await rows.nth(0).getAttribute("data-date"), await rows.nth(1).getAttribute("data-date")]).toEqual([
      "2026-11-19",
      "2026-11-18",
    ]);
    expect(await rows.nth(0).locator(":scope > th").textContent()).toBe("19/11/2026");
    expect(await rows.nth(0).locator(":scope > td").nth(0).textContent()).toBe("Com diferenças");
    expect(await rows.nth(1).locator(":scope > td").nth(0).textContent()).toBe("Conciliado");
    expect(await rows.nth(0).locator(":scope > td").nth(1).textContent()).toBe("2 Pix · R$ 1.234,56");
    expect(await rows.nth(0).locator(":scope > td").nth(3).textContent()).toBe("1 Pix · R$ 50,00");
    expect(await rows.nth(1).locator(":scope > td").nth(5).textContent()).toBe("0");
    await rows.nth(0).locator("summary").click();
    const diffs = rows.nth(0).locator("table.differences tbody tr");
    expect(await diffs.count()).toBe(3);
    const cells = async (i: number) => (await diffs.nth(i).locator("td").allTextContents()).map((s) => s.trim());
    expect(await cells(0)).toEqual(["Só no PSP", E2E_PSP, "—", "R$ 7,00", "—"]);
    expect(await cells(1)).toEqual([
      "Só no PSP (recuperado: confirmação em andamento)",
      E2E_HEALED,
      "ch_0193a6f2c1d87c4e9b1a2f3e4d5c6b7a",
      "R$ 15,00",
      "—",
    ]);
    expect(await cells(2)).toEqual([
      "Valores diferentes",
      "—",
      "po_0193a6f2c1d87c4e9b1a2f3e4d5c6b7b",
      "R$ 4,10",
      "R$ 4,00",
    ]);
    expect(errors).toEqual([]);
  }, 60_000);

  test("reconciling a day from the form shows the API's error when the account has no Pix provider connection", async () => {
    const { page } = owner;
    await page.fill('section.reconciliation input[name="date"]', "2026-11-20");
    await page.click('section.reconciliation button[type="submit"]');
    await page.waitForSelector('section.reconciliation [role="alert"]');
    expect(await page.textContent('section.reconciliation [role="alert"]')).toBe(
      "The account has no live Pix provider connection to reconcile with.",
    );
    await page.check('fieldset.modes input[value="test"]');
    await page.waitForSelector("section.reconciliation p.notice");
  }, 60_000);

  test("axe-core reports no serious or critical violation on the Conciliação page", async () => {
    const context = await (await sharedChromium()).newContext({ bypassCSP: true });
    const page = await context.newPage();
    let found: string[] = [];
    try {
      await page.goto(`${base}/dashboard#/reconciliation`);
      await page.fill('input[name="email"]', a.email);
      await page.fill('input[name="password"]', a.password);
      await page.click('button[type="submit"]');
      await page.waitForSelector("section.reconciliation p.notice");
      await page.check('fieldset.modes input[value="live"]');
      await page.waitForSelector("table.reconciliation-days tbody tr");
      await page.locator("table.reconciliation-days summary").first().click();
      await page.waitForSelector("table.differences");
      found = await seriousViolations(page);
    } finally {
      await context.close();
    }
    expect(found).toEqual([]);
  }, 60_000);
});
