/**
 * Helpers of the dashboard's browser tests (roles, isolation, the merchant's day, hostile text):
 * a served harness, login through the real form, a request forced from the page context with the
 * page's own CSRF token, and API fixtures (a paid payment, a MED case, a dead letter).
 */
import { expect } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { sharedChromium } from "../support/browser";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import type { Config } from "../../src/config";
import { testDb } from "../support/test-db";

/** A harness served on an ephemeral 127.0.0.1 port, its public URLs pointing at it. */
export function servedHarness(config: Partial<Config> = {}, start?: string): { h: Harness; base: string } {
  const h = createHarness(config, start);
  h.app.listen({ port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${h.app.server!.port}`;
  h.deps.config.publicUrl = base;
  h.deps.config.checkoutUrlBase = `${base}/c`;
  return { h, base };
}

/** A signed-in dashboard tab; `errors` collects the page's own errors (exceptions, CSP refusals). */
export interface Tab {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/** Opens a fresh context on the shared browser, logs in through the login form and waits for the shell (the account name shows). */
export async function signIn(
  base: string,
  email: string,
  password: string,
  viewport?: { width: number; height: number },
  options: { bypassCSP?: boolean } = {},
): Promise<Tab> {
  const context = await (await sharedChromium()).newContext({ ...(viewport ? { viewport } : {}), ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("dialog", (d) => void d.accept());
  await logIn(page, base, email, password);
  return { context, page, errors };
}

/**
 * The same tab signed in as someone else, as a browser nobody used before would be: cookies,
 * local and session storage emptied, the page unloaded (about:blank), then the login form and
 * the shell; `errors` emptied. Cheaper than a new context (no new renderer process).
 */
export async function signInAgain(tab: Tab, base: string, email: string, password: string): Promise<Tab> {
  if (tab.page.url().startsWith(`${base}/`))
    await tab.page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
  await tab.page.goto("about:blank");
  await tab.context.clearCookies();
  tab.errors.length = 0;
  await logIn(tab.page, base, email, password);
  return tab;
}

async function logIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/dashboard`);
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', password);
  await page.click('button[type="submit"]');
  await page.waitForSelector('[data-testid="account-name"]');
}

/** A hash route as the router reads it ("" and "#" are home). */
const route = (hash: string) => (hash === "" || hash === "#" ? "#/" : hash);

/**
 * Goes to a dashboard hash route with its page mounted afresh (so it reloads its data) and waits
 * for `ready`. Another route mounts a new page: the old page's element is waited out first, so
 * `ready` cannot match what the old page showed. The route already shown is left through
 * settings and entered again.
 */
export async function visit(page: Page, base: string, hash: string, ready: string): Promise<void> {
  if (route(new URL(page.url()).hash) === route(hash)) {
    const detour = route(hash) === "#/settings" ? "#/" : "#/settings";
    await page.goto(`${base}/dashboard${detour}`);
    await page.waitForSelector(detour === "#/settings" ? '[data-testid="pix-fee"]' : '[data-testid="today-volume"]');
  }
  const shown = await page.$("main > *");
  await page.goto(`${base}/dashboard${hash}`);
  if (shown) await page.waitForFunction((el) => !el.isConnected, shown);
  await page.waitForSelector(ready);
}

/**
 * The text of `selector` once it reads `expected` (waited for up to 10 s), else what it reads then.
 * For state the page shows after reloading: its notice ("... enviada.") appears before the reload
 * has rendered, so reading at once could see the old state.
 */
export async function settledText(page: Page, selector: string, expected: string): Promise<string | null> {
  await page
    .waitForFunction(([sel, text]) => document.querySelector(sel!)?.textContent === text, [selector, expected], {
      timeout: 10_000,
    })
    .catch(() => {});
  return page.textContent(selector);
}

/** Whether `selector` is gone from the page once the reload after an action has rendered (waited for up to 10 s). */
export async function gone(page: Page, selector: string): Promise<boolean> {
  return page.waitForSelector(selector, { state: "detached", timeout: 10_000 }).then(
    () => true,
    () => false,
  );
}

/** A request sent from the page with its session cookie and CSRF token (read from GET /v1/auth/session): what a user forcing a hidden action would send. */
export async function forced(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
  mode = "test",
): Promise<{ status: number; code: string | null }> {
  return page.evaluate(
    async ([method, path, body, mode]) => {
      const s = await (await fetch("/v1/auth/session")).json();
      const headers: Record<string, string> = { "x-csrf-token": s.csrf_token, "cofre-mode": mode as string };
      if (body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(path as string, {
        method: method as string,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let code: string | null = null;
      try {
        code = JSON.parse(text).error?.code ?? null;
      } catch {}
      return { status: res.status, code };
    },
    [method, path, body, mode] as const,
  );
}

/** A PIX payment of `amount` centavos created through the API with A's test key and paid through the sandbox helper; returns its raw id. */
export async function paidPayment(h: Harness, a: SeededAccount, amount: number, customerName: string): Promise<string> {
  const id = await waitingPayment(h, a, amount, customerName);
  const r = await h.call("POST", `/v1/test_helpers/charges/${id}/pay`, { key: a.testKey, body: {} });
  expect(r.status).toBe(200);
  return id;
}

/** A PIX payment created through the API and left waiting (cancellable); returns its raw id. */
export async function waitingPayment(
  h: Harness,
  a: SeededAccount,
  amount: number,
  customerName: string,
): Promise<string> {
  const r = await h.call("POST", "/v1/payments", {
    key: a.testKey,
    body: { amount, paymentMethods: ["PIX"], idempotencyKey: `dash-${crypto.randomUUID()}`, customerName },
  });
  expect(r.status).toBeLessThan(300);
  return r.body.id;
}

/** Opens an MED case on a paid payment through the sandbox helper; returns the case id. */
export async function openMed(h: Harness, a: SeededAccount, paymentId: string, reason = "scam"): Promise<string> {
  const r = await h.call("POST", `/v1/test_helpers/charges/ch_${paymentId}/med`, {
    key: a.testKey,
    body: { reason, response_deadline: "2030-01-01T00:00:00.000Z" },
  });
  expect(r.status).toBeLessThan(300);
  return r.body.id;
}

/** Registers a webhook endpoint through the API (test key unless `key` given); returns `{id, secret}`. */
export async function endpoint(
  h: Harness,
  key: string,
  url: string,
  events = ["charge.paid"],
): Promise<{ id: string; secret: string }> {
  const r = await h.call("POST", "/v1/webhooks/endpoints", { key, body: { url, events } });
  expect(r.status).toBe(201);
  return r.body;
}

/** Fixture: a delivery as after its last failed attempt (a dead letter). */
export async function spendDelivery(h: Harness, deliveryId: string, lastStatusCode = 500): Promise<void> {
  await testDb(h.deps).run(
    "update webhook_deliveries set status = 'FAILED', attempts = 8, max_attempts = 8, last_status_code = ?, next_retry_at = null where id = ?",
    lastStatusCode,
    deliveryId,
  );
}
