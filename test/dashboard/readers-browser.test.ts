/**
 * What a merchant reads in the dashboard (issue 29): every status, method and event by its pt-BR
 * label from the one table (src/web/dashboard/app/labels.tsx), the raw code on hover; the payment
 * detail with description, customer, the payer the PSP reported and a timeline that follows the
 * payment and its refunds without a reload (and stops asking once nothing is in flight); the merchant profile
 * edited in Settings by the OWNER and only read by a VIEWER. axe-core finds nothing serious.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "playwright-core";
import { seriousViolations } from "../support/browser";
import { addMember, loginToken } from "../auth/support";
import { servedHarness, signIn, visit, waitingPayment } from "./browser-support";
import { LIVE_POLL_MS } from "../../src/web/dashboard/app/payment";

setDefaultTimeout(60_000);

const { h, base } = servedHarness({ testClock: true });
afterAll(() => h.app.stop(true));

/** The text and `title` of `selector`. */
const shown = async (page: Page, selector: string) => ({
  text: (await page.textContent(selector))?.trim(),
  title: await page.getAttribute(selector, "title"),
});

describe("the translated dashboard", () => {
  test("lists and details show pt-BR labels with the code on hover; the detail shows description, customer and the reported payer", async () => {
    const a = await h.seedAccount({ name: "Loja Azul" });
    const created = await h.call("POST", "/v1/payments", {
      key: a.testKey,
      body: {
        amount: 1990,
        paymentMethods: ["PIX"],
        idempotencyKey: `readers-${crypto.randomUUID()}`,
        customerName: "Cliente da Loja",
        metadata: { description: "Camiseta azul" },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(
      (
        await h.call("POST", `/v1/test_helpers/charges/${id}/pay`, {
          key: a.testKey,
          body: { payer_name: "Maria Souza", payer_tax_id: "52998224725" },
        })
      ).status,
    ).toBe(200);
    // A delivery to show (webhookAllowPrivate is off: a public URL, delivered in the background or not).
    expect(
      (
        await h.call("POST", "/v1/webhooks/endpoints", {
          key: a.testKey,
          body: { url: "https://hooks.example.com/cofre", events: ["charge.paid", "charge.refunded"] },
        })
      ).status,
    ).toBe(201);
    expect((await h.call("POST", `/v1/payments/${id}/resend-webhook`, { key: a.testKey, body: {} })).status).toBe(200);
    const tab = await signIn(base, a.email, a.password, undefined, { bypassCSP: true });
    const { page } = tab;

    await visit(page, base, "#/payments", `tr[data-id="${id}"]`);
    expect(await shown(page, `tr[data-id="${id}"] .status`)).toEqual({ text: "Pago", title: "PAID" });
    expect(await page.textContent(`tr[data-id="${id}"] td:nth-child(3)`)).toBe("Pix");
    const statusOptions = await page.$$eval('select[name="status"] option', (os) => os.map((o) => o.textContent));
    expect(statusOptions).toContain("Aguardando pagamento");
    expect(statusOptions).not.toContain("WAITING_PAYMENT");

    await visit(page, base, `#/payments/${id}`, '[data-testid="status"]');
    expect(await shown(page, '[data-testid="status"]')).toEqual({ text: "Pago", title: "PAID" });
    expect(await page.textContent('[data-testid="description"]')).toBe("Camiseta azul");
    expect(await page.textContent('[data-testid="customer-name"]')).toBe("Cliente da Loja");
    expect(await page.textContent('[data-testid="payer"]')).toBe("Maria Souza · ***.982.247-**");
    expect(await page.textContent('[data-testid="methods"]')).toBe("Pix");
    await page.waitForSelector("table.deliveries tbody tr");
    const events = await page.$$eval("table.deliveries tbody tr td:nth-child(2) span", (s) =>
      s.map((e) => [e.textContent, e.getAttribute("title")]),
    );
    expect(events).toContainEqual(["Cobrança paga", "charge.paid"]);
    // No raw status or event code is left as text on the page.
    const text = await page.textContent("main");
    for (const code of ["PAID", "WAITING_PAYMENT", "charge.paid", "DELIVERED", "PENDING"])
      expect(text).not.toContain(code);
    expect(await seriousViolations(page)).toEqual([]);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });

  test("the payment detail follows a payment to its outcome without a reload, then stops asking", async () => {
    const a = await h.seedAccount();
    const id = await waitingPayment(h, a, 2590, "Maria Souza");
    const tab = await signIn(base, a.email, a.password);
    const { page } = tab;
    await visit(page, base, `#/payments/${id}`, '[data-testid="status"]');
    expect(await shown(page, '[data-testid="status"]')).toEqual({
      text: "Aguardando pagamento",
      title: "WAITING_PAYMENT",
    });
    await page.evaluate(() => ((window as any).__sameDocument = true));
    expect(
      (
        await h.call("POST", `/v1/test_helpers/charges/${id}/pay`, {
          key: a.testKey,
          body: { payer_name: "Maria Souza" },
        })
      ).status,
    ).toBe(200);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="status"]')?.textContent === "Pago",
      undefined,
      { timeout: 4 * LIVE_POLL_MS + 5_000 },
    );
    expect(await page.evaluate(() => (window as any).__sameDocument)).toBe(true);
    expect(await page.textContent('[data-testid="payer"]')).toBe("Maria Souza");
    expect(await page.textContent("ol.timeline")).toContain("Pago em");
    // Nothing in flight any more: no further reads of the payment.
    const reads: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith(`/v1/payments/${id}`)) reads.push(r.url());
    });
    await page.waitForTimeout(2 * LIVE_POLL_MS + 500);
    expect(reads).toEqual([]);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });
});

describe("the live timeline of a refund", () => {
  test("a refund shown Pendente becomes Estornado on the open page once it completes, without a reload", async () => {
    const a = await h.seedAccount();
    const id = await waitingPayment(h, a, 5000, "Maria Souza");
    expect((await h.call("POST", `/v1/test_helpers/charges/${id}/pay`, { key: a.testKey, body: {} })).status).toBe(200);
    const r = await h.call("POST", `/v1/payments/${id}/refund`, {
      key: a.testKey,
      body: { idempotencyKey: `readers-refund-${crypto.randomUUID()}` },
    });
    expect(r.body.status).toBe("PENDING");
    const tab = await signIn(base, a.email, a.password);
    const { page } = tab;
    await visit(page, base, `#/payments/${id}`, `.refunds li[data-id="${r.body.id}"]`);
    expect(await shown(page, `.refunds li[data-id="${r.body.id}"] .status`)).toEqual({
      text: "Pendente",
      title: "PENDING",
    });
    await page.evaluate(() => ((window as any).__sameDocument = true));
    // The sandbox completes the refund a few seconds later (service clock).
    expect(
      (await h.call("POST", "/v1/test_helpers/clock/advance", { key: a.testKey, body: { seconds: 600 } })).status,
    ).toBe(200);
    await page.waitForFunction(
      (rid) => document.querySelector(`.refunds li[data-id="${rid}"] .status`)?.textContent === "Estornado",
      r.body.id,
      { timeout: 4 * LIVE_POLL_MS + 5_000 },
    );
    expect(await shown(page, '[data-testid="status"]')).toEqual({ text: "Estornado", title: "REFUNDED" });
    expect(await page.textContent("ol.timeline")).toContain("(Estornado)");
    expect(await page.evaluate(() => (window as any).__sameDocument)).toBe(true);
    expect(tab.errors).toEqual([]);
    await tab.context.close();
  });
});

describe("the merchant profile in Settings", () => {
  test("the OWNER edits it (a bad CNPJ is refused with the server's message); a VIEWER only reads it", async () => {
    const a = await h.seedAccount({ name: "conta-perfil" });
    const tab = await signIn(base, a.email, a.password, undefined, { bypassCSP: true });
    const { page } = tab;
    await visit(page, base, "#/settings", '[data-testid="profile-trade_name"]');
    await page.fill('[data-testid="profile-tax_id"]', "11.222.333/0001-82");
    await page.click("form.profile-form button[type=submit]");
    await page.waitForSelector("form.profile-form [role=alert]");
    expect(await page.textContent("form.profile-form [role=alert]")).toContain("tax_id");
    await page.fill('[data-testid="profile-trade_name"]', "Loja Azul");
    await page.fill('[data-testid="profile-legal_name"]', "Loja Azul Comércio de Roupas Ltda.");
    await page.fill('[data-testid="profile-tax_id"]', "11.222.333/0001-81");
    await page.fill('[data-testid="profile-support_email"]', "sac@lojaazul.com.br");
    await page.fill('[data-testid="profile-support_phone"]', "+5511987654321");
    await page.click("form.profile-form button[type=submit]");
    await page.waitForSelector('[data-testid="profile-saved"]');
    const profile = (await h.call("GET", "/v1/account/profile", { key: a.testKey })).body;
    expect(profile).toEqual({
      legal_name: "Loja Azul Comércio de Roupas Ltda.",
      trade_name: "Loja Azul",
      tax_id: "11222333000181",
      support_email: "sac@lojaazul.com.br",
      support_phone: "+5511987654321",
      profile_locked: false,
    });
    expect(await page.inputValue('[data-testid="profile-tax_id"]')).toBe("11222333000181");
    expect(await seriousViolations(page)).toEqual([]);
    expect(tab.errors).toEqual([]);

    const viewer = await addMember(h, await loginToken(h, a.email, a.password), "VIEWER");
    const vtab = await signIn(base, viewer.email, viewer.password);
    await visit(vtab.page, base, "#/settings", '[data-testid="profile-trade_name"]');
    expect(await vtab.page.locator("form.profile-form").count()).toBe(0);
    expect(await vtab.page.textContent('[data-testid="profile-trade_name"]')).toBe("Loja Azul");
    await vtab.context.close();
    await tab.context.close();
  });
});
