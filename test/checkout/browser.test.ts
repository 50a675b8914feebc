/**
 * Real-browser checks of the hosted checkout (issue 13 section 3): Debian chromium driven by
 * playwright-core (test/support/browser.ts: fails loudly when chromium is missing) against a real
 * server on 127.0.0.1 whose COFRE_PUBLIC_URL says `localhost`: the page is always opened through
 * the other host, as a phone on the LAN or a proxy would. One context and page serve every test
 * (emptied at about:blank in between), on the browser the test files share.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { createHarness, type Harness } from "../support/harness";
import { sharedChromium } from "../support/browser";

let context: BrowserContext;
let tab: { page: Page; problems: string[]; dialogs: string[] };
let h: Harness;
let key: string;
/** Where the payer opens pages (127.0.0.1), and what COFRE_PUBLIC_URL says (localhost). */
let openBase: string;
let publicBase: string;

beforeAll(async () => {
  h = createHarness();
  h.app.listen({ port: 0, hostname: "127.0.0.1" });
  const port = h.app.server!.port;
  openBase = `http://127.0.0.1:${port}`;
  publicBase = `http://localhost:${port}`;
  // The config object is shared by reference: URLs handed out from now on name the other host.
  h.deps.config.publicUrl = publicBase;
  h.deps.config.checkoutUrlBase = `${publicBase}/c`;
  key = (await h.seedAccount({ name: "Loja do Navegador" })).testKey;
  context = await (await sharedChromium()).newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: openBase });
  tab = await watchedPage(context);
});

afterAll(async () => {
  await context?.close();
  await h?.app.stop(true);
});

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${openBase}${path}`, {
    method,
    headers: { apikey: key, "idempotency-key": `browser-${crypto.randomUUID()}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function createCharge(body: Record<string, unknown>) {
  const r = await api("POST", "/v1/pix/charges", body);
  expect(r.status).toBe(201);
  return r.body;
}

async function createPayment(body: Record<string, unknown>) {
  const r = await api("POST", "/v1/payments", {
    amount: 1000,
    idempotencyKey: `browser-${crypto.randomUUID()}`,
    ...body,
  });
  expect(r.status).toBe(201);
  return r.body;
}

/** `http://127.0.0.1:<port>/c/<raw>` for a checkout_url that names localhost. */
function viaOtherHost(checkoutUrl: string): string {
  expect(checkoutUrl.startsWith(`${publicBase}/c/`)).toBe(true);
  return checkoutUrl.replace(publicBase, openBase);
}

/** A page that records CSP violations, failed requests, script errors and dialogs (the file's one page: `watched` empties the records per test). */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[]; dialogs: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on("console", (m) => {
    // Error statuses are checked by URL below (the browser's own /favicon.ico request 404s).
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(`console: ${m.text()}`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname !== "/favicon.ico") problems.push(`${r.status()}: ${r.url()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => {
    // A reload cancels the status poll in flight; that is not a failure of the page.
    if (!r.failure()?.errorText.includes("ERR_ABORTED"))
      problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  return { page, problems, dialogs };
}

/** The file's page, its records emptied, at a phone's or the default desktop size; a test's last page stays open until the next. */
async function watched(
  viewport = { width: 1280, height: 720 },
): Promise<{ page: Page; problems: string[]; dialogs: string[] }> {
  await tab.page.goto("about:blank");
  await tab.page.setViewportSize(viewport);
  tab.problems.length = 0;
  tab.dialogs.length = 0;
  return tab;
}

describe("the checkout opened through a host other than COFRE_PUBLIC_URL", () => {
  test("loads its QR and pays through the sandbox control, reaching the paid screen with no CSP violation", async () => {
    const charge = await createCharge({ amount: 4590, description: "Livro de receitas" });
    const { page, problems } = await watched();
    await page.goto(viaOtherHost(charge.checkout_url));
    await expect(page.locator("h1").textContent()).resolves.toBe("R$\u00a045,90");
    await expect(page.getByTestId("description").textContent()).resolves.toBe("Livro de receitas");
    expect(await page.getByTestId("br-code").inputValue()).toBe(charge.pix.br_code);
    const qrLoaded = await page
      .locator("img.qr")
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
    expect(qrLoaded).toBe(true);
    await expect(page.locator("#countdown").textContent()).resolves.toMatch(/^(1:00:00|59:\d\d)$/);
    await page.getByRole("button", { name: "SANDBOX — simular pagamento (Pix)" }).click();
    await page.getByRole("heading", { name: "Pagamento confirmado" }).waitFor({ timeout: 10_000 });
    expect(page.url()).toStartWith(openBase);
    expect((await api("GET", `/v1/charges/${charge.id}`)).body.status).toBe("paid");
    expect((await api("GET", "/v1/wallets/balance?currency=BRL")).body.pending).toBeGreaterThanOrEqual(4590);
    expect(problems).toEqual([]);
  }, 30_000);

  test("copies the boleto's linha digitável as its 47 digits and pays the boleto through the sandbox control", async () => {
    const p = await createPayment({ amount: 123456, paymentMethods: ["BOLETO"] });
    const g = (await api("GET", `/v1/payments/${p.id}`)).body;
    const { page, problems } = await watched();
    await page.goto(`${openBase}/c/${p.id}`);
    await page.getByRole("button", { name: "Copiar linha digitável" }).click();
    await page.getByText("Linha digitável copiada").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(g.boletoLine);
    const pdf = await page
      .getByRole("link", { name: "Baixar boleto (PDF)" })
      .evaluate((a: HTMLAnchorElement) => a.href);
    expect(pdf).toBe(`${openBase}/v1/boletos/${p.id}.pdf`);
    await page.getByRole("button", { name: "SANDBOX — simular pagamento (Boleto)" }).click();
    await page.getByRole("heading", { name: "Pagamento confirmado" }).waitFor({ timeout: 10_000 });
    expect((await api("GET", `/v1/payments/${p.id}`)).body).toMatchObject({ status: "PAID", paidWith: "BOLETO" });
    expect(problems).toEqual([]);
  }, 30_000);

  test("the sandbox card form pays with the approve card and says so in pt-BR when the number is invalid", async () => {
    const p = await createPayment({ amount: 5000, paymentMethods: ["CREDIT_CARD"] });
    const { page } = await watched();
    await page.goto(`${openBase}/c/${p.id}`);
    await page.getByLabel("Número do cartão").fill("1234");
    await page.getByRole("button", { name: "Pagar com cartão" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Confira" }).textContent()).resolves.toBe(
      "Confira os dados do cartão.",
    );
    await page.getByLabel("Número do cartão").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pagar com cartão" }).click();
    await page.getByRole("heading", { name: "Pagamento confirmado" }).waitFor({ timeout: 10_000 });
    expect((await api("GET", `/v1/payments/${p.id}`)).body.status).toBe("APPROVED");
  }, 30_000);

  test("a charge left to expire switches to the expired screen by itself", async () => {
    const charge = await createCharge({ amount: 1000, expires_in: 60 });
    const { page } = await watched();
    await page.goto(viaOtherHost(charge.checkout_url));
    await page.getByRole("button", { name: "SANDBOX — simular pagamento (Pix)" }).waitFor();
    h.clock.advance(61);
    await h.deps.jobs.drain();
    await page.getByRole("heading", { name: "Cobrança expirada" }).waitFor({ timeout: 10_000 });
    expect(await page.getByRole("button", { name: /simular pagamento/ }).count()).toBe(0);
  }, 30_000);
});

describe("hostile merchant and customer text in the browser", () => {
  test("renders as text: no script runs, no element is injected, long text wraps on a phone screen", async () => {
    const hostile = `"><script>alert(1)</script><img src=x onerror=alert(2)>\u202Eevil`;
    const a = await h.seedAccount({ name: `${hostile} ${"m".repeat(10_000)}` });
    const res = await fetch(`${openBase}/v1/pix/charges`, {
      method: "POST",
      headers: {
        apikey: a.testKey,
        "idempotency-key": `browser-${crypto.randomUUID()}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({
        amount: 1000,
        description: `${hostile} ${"d".repeat(400)}`,
        customer: { name: `</textarea><b>\u05e9\u05dc\u05d5\u05dd</b>` },
      }),
    });
    expect(res.status).toBe(201);
    const charge = (await res.json()) as any;
    const { page, problems, dialogs } = await watched({ width: 360, height: 740 });
    await page.goto(viaOtherHost(charge.checkout_url));
    const dom = await page.evaluate(() => ({
      scripts: document.scripts.length,
      images: [...document.images].map((i) => i.className),
      bold: document.querySelectorAll("b").length,
      merchant: document.querySelector("[data-testid=merchant] bdi")!.textContent,
      description: document.querySelector("[data-testid=description] bdi")!.textContent,
      customer: document.querySelector("[data-testid=customer]")!.textContent,
      isolated: getComputedStyle(document.querySelector("[data-testid=description] bdi")!).unicodeBidi,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    }));
    expect(dom.scripts).toBe(1);
    expect(dom.images).toEqual(["qr"]);
    expect(dom.bold).toBe(0);
    expect(dom.merchant!.startsWith(hostile)).toBe(true);
    expect(dom.merchant!.endsWith("m…")).toBe(true);
    expect(dom.description!.startsWith(hostile)).toBe(true);
    expect(dom.customer).toBe("Pagador: </textarea><b>\u05e9\u05dc\u05d5\u05dd</b>");
    expect(dom.isolated).toBe("isolate");
    expect(dom.overflow).toBe(0);
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
  }, 30_000);
});
