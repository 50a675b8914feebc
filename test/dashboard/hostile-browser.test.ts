/**
 * Hostile text in the dashboard (issue 15 "Proof": XSS tests). Every merchant or customer string
 * the pages show (account name, customer name, MED reason, appeal reason and evidence file name,
 * webhook endpoint URL, API key label, member email) carries HTML, a `<script>`, an RTL override
 * and, where the API takes it, a long unbroken run (10 kB for the account name). At a 390 px phone
 * width each page renders them as text (no element injected, `window.__xss` never set) and its
 * main column stays within the viewport (`scrollWidth`).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { Harness, SeededAccount } from "../support/harness";
import { loginToken } from "../auth/support";
import { paidPayment, servedHarness, signIn, visit, type Tab } from "./browser-support";

const RTL = "\u202e";
/** HTML that would set `window.__xss` if it were ever parsed. */
const html = (n: number) => `<img src=x onerror="window.__xss=${n}"><script>window.__xss=${n + 1}</script><b>bold</b>`;

/** Account names are the operator's (no API limit): 10 kB. */
const ACCOUNT = `${html(1)}${RTL}Padaria ${"x".repeat(10_000)}`;
/** Customer names: at most 200 characters (POST /v1/payments). */
const CUSTOMER = `${RTL}${html(3)}"'&${"c".repeat(200)}`.slice(0, 200);
/** MED reasons from the sandbox helper. */
const MED_REASON = `${html(5)}${RTL}golpe`;
/** Appeal reasons: 5-2000 characters. */
const APPEAL = `${html(7)}${RTL}${"a".repeat(2000)}`.slice(0, 2000);
/** Evidence file names: 1-255 characters, no slash or control character. */
const FILE_NAME = `<img src=x onerror="window.__xss=9">${"f".repeat(200)}.pdf`;
/** Webhook URLs: at most 2048 characters; raw HTML characters in the path are taken as sent. */
/** Endpoint URLs must be RFC 3986 (raw `<>"` and bidi characters are 400): the most hostile such URI. */
const HOOK_URL = `https://hostile.example.com/x'onmouseover='window.__xss=11'(1)/%3Cscript%3Ewindow.__xss=11%3C/script%3E%E2%80%AE/${"u".repeat(1800)}`;
/** Key labels: at most 64 characters. */
const LABEL = `<img src=x onerror="window.__xss=13">${RTL}${"k".repeat(64)}`.slice(0, 64);
/** Member emails must be valid addresses: the longest shape (64-character local part, long labels). */
const EMAIL = `${"m".repeat(64)}@${"d".repeat(63)}.${"e".repeat(63)}.example.com`;

let h: Harness;
let base: string;
let a: SeededAccount;
let tab: Tab;
let paymentId: string;
let caseId: string;
let hookId: string;

/** Hostile markup must stay text: nothing injected, nothing run, and the main column within 390 px. */
async function intact(
  page: Page,
): Promise<{ xss: unknown; injected: number; scripts: number; docWidth: number; mainWidth: number }> {
  return page.evaluate(() => ({
    xss: (window as any).__xss ?? null,
    injected: document.querySelectorAll('img[src="x"], body b, #app script').length,
    scripts: document.scripts.length,
    docWidth: document.documentElement.scrollWidth,
    mainWidth: document.querySelector("main")!.scrollWidth,
  }));
}
const SAFE = { xss: null, injected: 0, scripts: 1, docWidth: 390, mainWidth: 390 };

/** The `intact` figures, widths capped at the viewport when within it (so a failure shows the overflow). */
async function measured(page: Page) {
  const r = await intact(page);
  return { ...r, docWidth: Math.max(390, r.docWidth), mainWidth: Math.max(390, r.mainWidth) };
}

beforeAll(async () => {
  ({ h, base } = servedHarness());
  a = await h.seedAccount({ name: ACCOUNT });
  paymentId = await paidPayment(h, a, 4321, CUSTOMER);
  const med = await h.call("POST", `/v1/test_helpers/charges/ch_${paymentId}/med`, {
    key: a.testKey,
    body: { reason: MED_REASON, response_deadline: "2030-01-01T00:00:00.000Z" },
  });
  expect(med.status).toBeLessThan(300);
  caseId = med.body.id;
  const pdf = "%PDF-1.4\n%%EOF\n";
  const ev = await h.call("POST", `/v1/med/cases/${caseId}/evidence`, {
    key: a.testKey,
    body: { file_name: FILE_NAME, file_size: pdf.length, mime_type: "application/pdf" },
  });
  expect(ev.status).toBe(201);
  const put = await fetch(ev.body.upload_url.replace(/^https?:\/\/[^/]+/, base), {
    method: "PUT",
    headers: { "content-type": "application/pdf" },
    body: pdf,
  });
  expect(put.status).toBeLessThan(300);
  expect(
    (await h.call("POST", `/v1/med/cases/${caseId}/evidence/${ev.body.id}/complete`, { key: a.testKey, body: {} }))
      .status,
  ).toBe(200);
  expect(
    (await h.call("POST", `/v1/med/cases/${caseId}/appeal`, { key: a.testKey, body: { reason: APPEAL } })).status,
  ).toBe(200);
  const hook = await h.call("POST", "/v1/webhooks/endpoints", {
    key: a.testKey,
    body: { url: HOOK_URL, events: ["charge.paid"] },
  });
  expect(hook.status).toBe(201);
  hookId = hook.body.id;
  const owner = await loginToken(h, a.email, a.password);
  expect((await h.call("POST", "/v1/api-keys", { bearer: owner, body: { label: LABEL, test: true } })).status).toBe(
    201,
  );
  expect(
    (
      await h.call("POST", "/v1/account/members", {
        bearer: owner,
        body: { email: EMAIL, password: "member password 123", role: "VIEWER" },
      })
    ).status,
  ).toBe(201);
  tab = await signIn(base, a.email, a.password, { width: 390, height: 800 });
}, 60_000);

afterAll(async () => {
  await tab?.context.close();
  await h?.app.stop(true);
});

describe("hostile text in the dashboard at 390 px", () => {
  test("home shows the 10 kB hostile account name as text and stays within the viewport", async () => {
    const { page } = tab;
    await visit(page, base, "#/", '[data-testid="today-volume"]');
    expect(await page.textContent('[data-testid="account-name"]')).toBe(ACCOUNT);
    expect(await measured(page)).toEqual(SAFE);
  }, 30_000);

  test("the payments list and the detail show the hostile customer name as text within the viewport", async () => {
    const { page } = tab;
    await visit(page, base, "#/payments", `tr[data-id="${paymentId}"]`);
    expect(await page.textContent(`tr[data-id="${paymentId}"] .name`)).toBe(CUSTOMER);
    expect(await measured(page)).toEqual(SAFE);
    await visit(page, base, `#/payments/${paymentId}`, '[data-testid="customer-name"]');
    expect(await page.textContent('[data-testid="customer-name"]')).toBe(CUSTOMER);
    expect(await measured(page)).toEqual(SAFE);
  }, 30_000);

  test("the MED list and case show the hostile reason, appeal and evidence file name as text within the viewport", async () => {
    const { page } = tab;
    await visit(page, base, "#/med", `tr[data-id="${caseId}"]`);
    expect(await measured(page)).toEqual(SAFE);
    await visit(page, base, `#/med/${caseId}`, ".evidence li");
    const facts = await page.locator("dl.facts dd.name").allTextContents();
    expect(facts).toEqual([MED_REASON, APPEAL]);
    expect(await page.textContent(".evidence li a")).toBe(FILE_NAME);
    expect(await measured(page)).toEqual(SAFE);
  }, 30_000);

  test("webhooks show the hostile endpoint URL as text within the viewport", async () => {
    const { page } = tab;
    await visit(page, base, "#/webhooks", `tr[data-id="${hookId}"]`);
    expect(await page.textContent(`tr[data-id="${hookId}"] .name`)).toBe(HOOK_URL);
    expect(await measured(page)).toEqual(SAFE);
  }, 30_000);

  test("developers show the hostile key label and the longest member email as text within the viewport", async () => {
    const { page } = tab;
    await visit(page, base, "#/developers", "table.keys");
    await page.waitForSelector(`table.members >> text=${EMAIL}`);
    expect(await page.locator("table.keys td.name").allTextContents()).toContain(LABEL);
    expect(await measured(page)).toEqual(SAFE);
  }, 30_000);

  test("settings stay within the viewport, and no page logged an error", async () => {
    const { page, errors } = tab;
    await visit(page, base, "#/settings", '[data-testid="pix-fee"]');
    expect(await measured(page)).toEqual(SAFE);
    expect(errors).toEqual([]);
  }, 30_000);
});
