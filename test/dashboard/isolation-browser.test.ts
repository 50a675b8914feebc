/**
 * Isolation in the dashboard (issue 15 "Proof": another account's data never appears). Accounts A
 * and B hold similar data (paid payments, a MED case, test and live webhook endpoints, a dead
 * letter, labelled keys, members, dashboard actions in the audit log). Logged in as A, every page
 * in both modes (home figures, payments list and search, direct URLs to B's payment and MED case,
 * MED, webhooks, developers with keys, members, request and audit logs) shows A's data and never
 * one of B's markers (ids, names, emails, URLs, labels, amounts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { Harness, SeededAccount } from "../support/harness";
import { addMember, loginToken } from "../auth/support";
import { dashboardLogin } from "./support";
import {
  endpoint,
  openMed,
  paidPayment,
  servedHarness,
  signIn,
  spendDelivery,
  visit,
  type Tab,
} from "./browser-support";

interface Side {
  acc: SeededAccount;
  payment: string;
  med: string;
  hookTest: string;
  hookLive: string;
  dead: string;
  member: string;
  markers: string[];
}

let h: Harness;
let base: string;
let A: Side;
let B: Side;
let tab: Tab;

/** Centavos as the merchant reads them (oracle independent of Intl). */
function brl(cents: number): string {
  const int = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `R$ ${int},${String(cents % 100).padStart(2, "0")}`;
}

/** One account's similar data; every string that names it is kept as a marker. */
async function side(tag: string, amount: number): Promise<Side> {
  const acc = await h.seedAccount({
    name: `Loja ${tag}`,
    email: `dono-${tag.toLowerCase()}@loja-${tag.toLowerCase()}.example.com`,
  });
  const payment = await paidPayment(h, acc, amount, `Cliente da loja ${tag}`);
  const medPayment = await paidPayment(h, acc, amount + 1, `Cliente MED da loja ${tag}`);
  const med = await openMed(h, acc, medPayment, `motivo-${tag}`);
  const hookTest = (await endpoint(h, acc.testKey, `https://hooks-${tag.toLowerCase()}.example.com/test`)).id;
  const hookLive = (await endpoint(h, acc.liveKey, `https://hooks-${tag.toLowerCase()}.example.com/live`)).id;
  const dead = (await h.call("GET", `/v1/webhooks/deliveries?transactionId=${payment}`, { key: acc.testKey })).body
    .data[0].id;
  await spendDelivery(h, dead);
  const owner = await loginToken(h, acc.email, acc.password);
  for (const test of [true, false])
    expect(
      (
        await h.call("POST", "/v1/api-keys", {
          bearer: owner,
          body: { label: `chave-${test ? "teste" : "real"}-${tag}`, test },
        })
      ).status,
    ).toBe(201);
  const m = await addMember(h, owner, "VIEWER");
  // A dashboard action of the account (audit log) and an API call (request log).
  const s = await dashboardLogin(h, acc.email, acc.password);
  expect((await s.call("PATCH", `/v1/webhooks/endpoints/${hookTest}`, { body: { status: "ACTIVE" } })).status).toBe(
    200,
  );
  expect((await h.call("GET", `/v1/payments/${payment}`, { key: acc.testKey })).status).toBe(200);
  const markers = [
    acc.accountId,
    acc.userId,
    acc.email,
    m.email,
    m.id,
    `Loja ${tag}`,
    `loja ${tag}`,
    `hooks-${tag.toLowerCase()}`,
    `chave-teste-${tag}`,
    `chave-real-${tag}`,
    payment,
    medPayment,
    med,
    hookTest,
    hookLive,
    dead,
    `motivo-${tag}`,
    brl(amount),
    brl(amount + 1),
  ];
  return { acc, payment, med, hookTest, hookLive, dead, member: m.email, markers };
}

/** The page's whole visible text and attribute values (hrefs, data-ids). */
async function pageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attrs = [...document.querySelectorAll("*")].flatMap((el) => [...el.attributes].map((a) => a.value));
    return `${document.body.innerText}\n${attrs.join("\n")}`;
  });
}

function leaks(text: string): string[] {
  return B.markers.filter((m) => text.includes(m));
}

async function mode(page: Page, m: "test" | "live") {
  await page.check(`input[name="mode"][value="${m}"]`);
  await page.waitForSelector(`.shell[data-mode="${m}"]`);
}

beforeAll(async () => {
  ({ h, base } = servedHarness({ webhookAllowPrivate: false }));
  h.subscribeAllEvents = true;
  A = await side("A", 11111);
  B = await side("B", 98765);
  tab = await signIn(base, A.acc.email, A.acc.password);
}, 60_000);

afterAll(async () => {
  await tab?.context.close();
  await h?.app.stop(true);
});

describe("dashboard isolation in the browser: logged in as A, B's data never shows", () => {
  test("test mode: home, payments, search, MED, webhooks and developers show A's data and none of B's", async () => {
    const { page } = tab;
    await mode(page, "test");
    const seen: Record<string, string[]> = {};
    await visit(page, base, "#/", '[data-testid="today-volume"]');
    expect(await page.textContent('[data-testid="today-volume"] .value')).toBe(brl(11111 + 11112));
    seen.home = leaks(await pageText(page));
    await visit(page, base, "#/payments", `tr[data-id="${A.payment}"]`);
    expect(await page.locator("tbody tr").count()).toBe(2);
    seen.payments = leaks(await pageText(page));
    for (const term of [B.payment, `ch_${B.payment}`]) {
      await page.fill('input[name="search"]', term);
      await page.click('form.filters button[type="submit"]');
      await page.waitForSelector("text=Nenhum pagamento encontrado.");
      seen[`search ${term}`] = leaks(await pageText(page));
    }
    await visit(page, base, `#/payments/${A.payment}`, '[data-testid="customer-name"]');
    expect(await page.textContent('[data-testid="customer-name"]')).toBe("Cliente da loja A");
    seen.detail = leaks(await pageText(page));
    await visit(page, base, `#/payments/${B.payment}`, '[role="alert"]');
    expect(await page.locator('[data-testid="customer-name"]').count()).toBe(0);
    seen["B's payment URL"] = leaks(await pageText(page));
    await visit(page, base, "#/med", `tr[data-id="${A.med}"]`);
    expect(await page.locator("tbody tr").count()).toBe(1);
    seen.med = leaks(await pageText(page));
    await visit(page, base, `#/med/${A.med}`, '[data-testid="case-status"]');
    seen["A's case"] = leaks(await pageText(page));
    await visit(page, base, `#/med/${B.med}`, '[role="alert"]');
    expect(await page.locator('[data-testid="case-status"]').count()).toBe(0);
    seen["B's case URL"] = leaks(await pageText(page));
    await visit(page, base, "#/webhooks", `table.dead tr[data-id="${A.dead}"]`);
    expect(await page.locator(`table.endpoints tr[data-id="${A.hookTest}"]`).count()).toBe(1);
    expect(await page.locator("table.endpoints tbody tr").count()).toBe(
      (await h.call("GET", "/v1/webhooks/endpoints", { key: A.acc.testKey })).body.data.length,
    );
    expect(await page.locator("table.dead tbody tr").count()).toBe(1);
    // The probe sees A's own markers on the page (so it would see B's).
    const shown = await pageText(page);
    expect([A.hookTest, A.dead, "hooks-a.example.com/test"].filter((m) => !shown.includes(m))).toEqual([]);
    seen.webhooks = leaks(shown);
    await visit(page, base, "#/developers", "table.audit tbody tr");
    await page.waitForSelector(`table.members >> text=${A.member}`);
    await page.waitForSelector("table.logs tbody tr");
    await page.waitForSelector("table.keys tbody tr"); // each table of the page loads on its own
    expect(await page.locator("table.keys >> text=chave-teste-A").count()).toBe(1);
    seen.developers = leaks(await pageText(page));
    await visit(page, base, "#/settings", '[data-testid="pix-fee"]');
    seen.settings = leaks(await pageText(page));
    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((k) => [k, []])));
    expect(tab.errors).toEqual([]);
  }, 60_000);

  test("live mode: home, payments, MED, webhooks and developers show A's live endpoint and none of B's data", async () => {
    const { page } = tab;
    await mode(page, "live");
    const seen: Record<string, string[]> = {};
    await visit(page, base, "#/", '[data-testid="today-volume"]');
    expect(await page.textContent('[data-testid="today-volume"] .value')).toBe(brl(0));
    seen.home = leaks(await pageText(page));
    await visit(page, base, "#/payments", "text=Nenhum pagamento encontrado.");
    seen.payments = leaks(await pageText(page));
    await page.fill('input[name="search"]', B.payment);
    await page.click('form.filters button[type="submit"]');
    await page.waitForSelector("text=Nenhum pagamento encontrado.");
    seen.search = leaks(await pageText(page));
    await visit(page, base, `#/payments/${B.payment}`, '[role="alert"]');
    seen["B's payment URL"] = leaks(await pageText(page));
    await visit(page, base, "#/med", "h1");
    await page.waitForSelector("text=Nenhum caso MED.");
    seen.med = leaks(await pageText(page));
    await visit(page, base, `#/med/${B.med}`, '[role="alert"]');
    seen["B's case URL"] = leaks(await pageText(page));
    await visit(page, base, "#/webhooks", `table.endpoints tr[data-id="${A.hookLive}"]`);
    expect(await page.locator("table.endpoints tbody tr").count()).toBe(
      (await h.call("GET", "/v1/webhooks/endpoints", { key: A.acc.liveKey })).body.data.length,
    );
    seen.webhooks = leaks(await pageText(page));
    await visit(page, base, "#/developers", "table.audit tbody tr");
    await page.waitForSelector(`table.members >> text=${A.member}`);
    seen.developers = leaks(await pageText(page));
    expect(seen).toEqual(Object.fromEntries(Object.keys(seen).map((k) => [k, []])));
    await mode(page, "test");
  }, 60_000);
});
