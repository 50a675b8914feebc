/**
 * The dashboard in Debian Chromium (issue 15 step 4): log in, the account name, the test/live
 * switch, a charge created through the API seen and refunded, hostile names rendered as text,
 * CSRF, a VIEWER without a refund button (and refused by the server anyway), and axe-core on
 * every page built. The browser the test files share; the owner's tab serves most tests, one
 * more tab the VIEWER and the DEVELOPER in turn, and axe-core walks every page in a third.
 */
import { LABELS } from "../../src/web/dashboard/app/labels";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { seriousViolations, sharedChromium } from "../support/browser";
import { addMember, loginToken } from "../auth/support";
import { gone, settledText, signIn, signInAgain, spendDelivery, type Tab } from "./browser-support";
import { testDb } from "../support/test-db";

/** Account names are the operator's (no API limit): HTML, script, RTL override and 10 kB. */
const HOSTILE_ACCOUNT = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>\u202ePadaria ${"x".repeat(10_000)}`;
/** Customer names are at most 200 characters (POST /v1/payments). */
const HOSTILE_CUSTOMER = `\u202eAna <b>Souza</b> "'&<script>window.__xss=3</script><img src=x onerror="window.__xss=4">`;

let h: Harness;
let a: SeededAccount;
let base: string;
/** The owner's tab (`errors`: CSP refusals and exceptions of the page). */
let owner: Tab;
/** The tab of the other members (VIEWER, then DEVELOPER). */
let other: Tab | undefined;
let paymentId: string;
let medCaseId: string;

/** Centavos as the merchant reads them, built by hand (an oracle independent of Intl): 123456 -> "R$ 1.234,56". */
function brl(cents: number): string {
  const int = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `R$ ${int},${String(cents % 100).padStart(2, "0")}`;
}

async function apiPost(path: string, body: unknown, headers: Record<string, string> = {}) {
  const r = await h.call("POST", path, { key: a.testKey, body, headers });
  expect(r.status).toBeLessThan(300);
  return r.body;
}

/** The other members' tab signed in as `m` (a fresh context the first time, then emptied and reused). */
async function otherTab(m: { email: string; password: string }): Promise<Tab> {
  other = other ? await signInAgain(other, base, m.email, m.password) : await signIn(base, m.email, m.password);
  return other;
}

beforeAll(async () => {
  h = createHarness();
  h.subscribeAllEvents = true; // the detail lists the deliveries of the payment's events
  h.app.listen({ port: 0, hostname: "127.0.0.1" });
  base = `http://127.0.0.1:${h.app.server!.port}`;
  h.deps.config.publicUrl = base;
  h.deps.config.checkoutUrlBase = `${base}/c`;
  a = await h.seedAccount({ name: HOSTILE_ACCOUNT });
  const p = await apiPost("/v1/payments", {
    amount: 123456,
    paymentMethods: ["PIX"],
    idempotencyKey: `dash-${crypto.randomUUID()}`,
    customerName: HOSTILE_CUSTOMER,
  });
  await apiPost(`/v1/test_helpers/charges/${p.id}/pay`, {});
  paymentId = p.id;
  owner = await signIn(base, a.email, a.password);
}, 60_000);

afterAll(async () => {
  await owner?.context.close();
  await other?.context.close();
  await h?.app.stop(true);
});

describe("dashboard in the browser: a merchant's money pages", () => {
  test("after login the page shows the account name as text, marks test mode, and the page runs under its CSP without errors", async () => {
    const { page, errors } = owner;
    expect(await page.textContent('[data-testid="account-name"]')).toBe(HOSTILE_ACCOUNT);
    expect(await page.locator(".bar img, .bar script").count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    expect(await page.locator(".sandbox").textContent()).toBe("MODO DE TESTE: dados de sandbox, nenhum dinheiro real");
    const res = await page.request.get(`${base}/dashboard`);
    expect(res.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(res.headers()["content-security-policy"]).toContain("script-src 'self'");
    expect(errors).toEqual([]);
  }, 30_000);

  test("home shows the balances and volumes of the API in R$ and one chart", async () => {
    const { page } = owner;
    await page.goto(`${base}/dashboard#/`);
    await page.waitForSelector('[data-testid="pending"]');
    const balance = (await h.call("GET", "/v1/wallets/balance", { key: a.testKey })).body;
    expect(await page.textContent('[data-testid="available"] .value')).toBe(brl(balance.available));
    expect(await page.textContent('[data-testid="pending"] .value')).toBe(brl(balance.pending));
    expect(await page.textContent('[data-testid="today-volume"] .value')).toBe(brl(123456));
    expect(await page.textContent('[data-testid="volume-30d"] .value')).toBe(brl(123456));
    expect(await page.locator(".chart canvas").count()).toBe(1);
  }, 30_000);

  test("switching to live hides the sandbox banner and the test charge; back in test the charge is listed", async () => {
    const { page } = owner;
    await page.goto(`${base}/dashboard#/payments`);
    await page.waitForSelector(`tr[data-id="${paymentId}"]`);
    await page.check('input[name="mode"][value="live"]');
    await page.waitForSelector("text=Nenhum pagamento encontrado.");
    expect(await page.locator(".sandbox").count()).toBe(0);
    await page.check('input[name="mode"][value="test"]');
    await page.waitForSelector(`tr[data-id="${paymentId}"]`);
    expect(await page.textContent(`tr[data-id="${paymentId}"] .num`)).toBe(brl(123456));
  }, 30_000);

  test("the search box finds the charge by its ch_ id and finds nothing for an unknown term", async () => {
    const { page } = owner;
    await page.fill('input[name="search"]', `ch_${paymentId}`);
    await page.click('form.filters button[type="submit"]');
    await page.waitForSelector(`tr[data-id="${paymentId}"]`);
    expect(await page.locator("tbody tr").count()).toBe(1);
    await page.fill('input[name="search"]', "E00000000nothing");
    await page.click('form.filters button[type="submit"]');
    await page.waitForSelector("text=Nenhum pagamento encontrado.");
    await page.fill('input[name="search"]', "");
    await page.click('form.filters button[type="submit"]');
    await page.waitForSelector(`tr[data-id="${paymentId}"]`);
  }, 30_000);

  test("the method filter lists the Pix charge under PIX and nothing under BOLETO, as the API does", async () => {
    const { page } = owner;
    await page.goto(`${base}/dashboard#/payments`);
    await page.waitForSelector(`tr[data-id="${paymentId}"]`);
    await page.selectOption('select[name="paymentMethod"]', "BOLETO");
    await page.click('form.filters button[type="submit"]');
    await page.waitForSelector("text=Nenhum pagamento encontrado.");
    expect((await h.call("GET", "/v1/payments?paymentMethod=BOLETO", { key: a.testKey })).body.total).toBe(0);
    await page.selectOption('select[name="paymentMethod"]', "PIX");
    await page.click('form.filters button[type="submit"]');
    await page.waitForSelector(`tr[data-id="${paymentId}"]`);
    const pix = (await h.call("GET", "/v1/payments?paymentMethod=PIX&limit=50", { key: a.testKey })).body.data;
    expect(await page.locator("tbody tr").count()).toBe(pix.length);
    await page.selectOption('select[name="paymentMethod"]', "");
    await page.click('form.filters button[type="submit"]');
    await page.waitForSelector(`tr[data-id="${paymentId}"]`);
  }, 30_000);

  test("the detail renders the hostile customer name as text, and a partial refund goes through the confirmation", async () => {
    const { page } = owner;
    await page.click(`tr[data-id="${paymentId}"] a`);
    await page.waitForSelector('[data-testid="customer-name"]');
    expect(await page.textContent('[data-testid="customer-name"]')).toBe(HOSTILE_CUSTOMER);
    expect(await page.locator("section b, section script").count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    const deliveries = (await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paymentId}`, { key: a.testKey }))
      .body.data;
    expect(deliveries.length).toBeGreaterThan(0);
    // The page loads the payment, then its refunds, then its deliveries: the table comes last.
    await page.waitForSelector("table.deliveries tbody tr");
    expect(await page.locator("table.deliveries tbody tr").count()).toBe(deliveries.length);
    // The event by its pt-BR label, the code on hover (labels.tsx).
    expect(
      await page.getAttribute(
        `table.deliveries tr[data-id="${deliveries[0].id}"] td:nth-child(2) [data-code]`,
        "title",
      ),
    ).toBe(deliveries[0].eventType);
    await page.fill('form.refund input[name="amount"]', "4,00");
    await page.click('form.refund button[type="submit"]');
    await page.waitForSelector(".confirm");
    expect(await page.textContent(".confirm p")).toBe(`Confirmar reembolso de ${brl(400)}?`);
    await page.click(".confirm button >> text=Confirmar");
    await page.waitForSelector("text=Reembolso solicitado.");
    const refunds = (await h.call("GET", `/v1/payments/${paymentId}/refunds`, { key: a.testKey })).body.data;
    expect(refunds.map((r: any) => [r.amount, r.status])).toEqual([[400, "PENDING"]]);
    expect(await page.textContent(`.refunds li[data-id="${refunds[0].id}"]`)).toContain(brl(400));
  }, 30_000);

  test("a state-changing request from the page without the CSRF token is refused with 403 and refunds nothing", async () => {
    const { page } = owner;
    const r = await page.evaluate(async (id) => {
      const res = await fetch(`/v1/payments/${id}/refund`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ idempotencyKey: "csrf-probe-123", amount: 100 }),
      });
      return { status: res.status, code: (await res.json()).error.code };
    }, paymentId);
    expect(r).toEqual({ status: 403, code: "csrf_invalid" });
    expect((await h.call("GET", `/v1/payments/${paymentId}/refunds`, { key: a.testKey })).body.data.length).toBe(1);
  }, 30_000);

  test("a VIEWER sees no refund or resend button and the server refuses the refund anyway", async () => {
    const m = await addMember(h, await loginToken(h, a.email, a.password), "VIEWER");
    const viewer = await otherTab(m);
    await viewer.page.goto(`${base}/dashboard#/payments/${paymentId}`);
    await viewer.page.waitForSelector('[data-testid="customer-name"]');
    expect(await viewer.page.locator("form.refund").count()).toBe(0);
    expect(await viewer.page.locator(".actions button >> text=Reenviar webhook").count()).toBe(0);
    const r = await viewer.page.evaluate(async (id) => {
      const s = await (await fetch("/v1/auth/session")).json();
      const res = await fetch(`/v1/payments/${id}/refund`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": s.csrf_token },
        body: JSON.stringify({ idempotencyKey: "viewer-probe-1", amount: 100 }),
      });
      return { status: res.status, code: (await res.json()).error.code };
    }, paymentId);
    expect(r).toEqual({ status: 403, code: "role_forbidden" });
  }, 30_000);

  test("webhooks: an endpoint is created with its secret shown once, edited (URL and events), paused and deleted; a dead letter is retried", async () => {
    const { page } = owner; // signIn accepts the page's confirm() dialogs
    await page.goto(`${base}/dashboard#/webhooks`);
    await page.waitForSelector("form.new-endpoint");
    await page.fill('form.new-endpoint input[name="url"]', "https://shop.example.com/cofre-hook");
    await page.check('form.new-endpoint input[value="charge.paid"]');
    await page.click('form.new-endpoint button[type="submit"]');
    await page.waitForSelector('[data-testid="secret"] code');
    expect(await page.textContent('[data-testid="secret"] code')).toMatch(/^[0-9a-f]{64}$/);
    const listed = (await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey })).body.data.find(
      (e: any) => e.url === "https://shop.example.com/cofre-hook",
    );
    expect(listed).toMatchObject({ events: ["charge.paid"], status: "ACTIVE" });
    await page.click('[data-testid="secret"] button');
    await page.waitForSelector('[data-testid="secret"]', { state: "detached" });
    await page.click(`tr[data-id="${listed.id}"] button >> text=Editar`);
    await page.waitForSelector("form.edit-endpoint");
    expect(await page.isChecked('form.edit-endpoint input[value="charge.paid"]')).toBe(true);
    await page.fill('form.edit-endpoint input[name="url"]', "https://shop.example.com/cofre-hook-v2");
    await page.uncheck('form.edit-endpoint input[value="charge.paid"]');
    await page.check('form.edit-endpoint input[value="charge.refunded"]');
    await page.click('form.edit-endpoint button[type="submit"]');
    await page.waitForSelector("text=Alterações salvas.");
    const edited = (await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey })).body.data.find(
      (e: any) => e.id === listed.id,
    );
    expect(edited).toMatchObject({
      url: "https://shop.example.com/cofre-hook-v2",
      events: ["charge.refunded"],
      status: "ACTIVE",
    });
    // The notice shows before the list is read again: wait for the row to be redrawn.
    await page.locator(`tr[data-id="${listed.id}"] td.name`, { hasText: "cofre-hook-v2" }).waitFor();
    expect(await page.textContent(`tr[data-id="${listed.id}"] td.name`)).toBe("https://shop.example.com/cofre-hook-v2");
    await page.click(`tr[data-id="${listed.id}"] button >> text=Pausar`);
    await page.waitForSelector(`tr[data-id="${listed.id}"] button >> text=Ativar`);
    expect(
      (await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey })).body.data.find((e: any) => e.id === listed.id)
        .status,
    ).toBe("INACTIVE");
    await page.click(`tr[data-id="${listed.id}"] button >> text=Excluir`);
    await page.waitForSelector(`tr[data-id="${listed.id}"]`, { state: "detached" });
    expect(
      (await h.call("GET", "/v1/webhooks/endpoints", { key: a.testKey })).body.data.some(
        (e: any) => e.id === listed.id,
      ),
    ).toBe(false);
    // A delivery that spent its attempts (fixture: as after its last failed attempt).
    const d = (await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paymentId}`, { key: a.testKey })).body
      .data[0];
    await spendDelivery(h, d.id);
    await page.goto(`${base}/dashboard#/`);
    await page.goto(`${base}/dashboard#/webhooks`);
    await page.click(`table.dead tr[data-id="${d.id}"] button`);
    await page.waitForSelector("text=Entrega reenfileirada.");
    const after = (
      await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paymentId}`, { key: a.testKey })
    ).body.data.find((x: any) => x.id === d.id);
    expect(after.status).not.toBe("FAILED");
    await page.waitForSelector(`table.dead tr[data-id="${d.id}"]`, { state: "detached" });
  }, 60_000);

  test("webhooks: the event catalog lists every name of GET /v1/webhooks/event-catalog with its description, legacy names marked", async () => {
    const { page } = owner;
    await page.goto(`${base}/dashboard#/`);
    await page.goto(`${base}/dashboard#/webhooks`);
    await page.waitForSelector("table.catalog tbody tr");
    const catalog = (await h.call("GET", "/v1/webhooks/event-catalog")).body;
    expect(await page.locator("table.catalog tbody tr").count()).toBe(catalog.length);
    for (const c of [catalog.find((e: any) => !e.legacy), catalog.find((e: any) => e.legacy)]) {
      const row = page.locator(`table.catalog tr[data-event="${c.event}"]`);
      // The pt-BR label from the dashboard's one table; the API's description on hover.
      expect(await row.locator("td.name").textContent()).toBe(LABELS.event[c.event as keyof typeof LABELS.event][0]);
      expect(await row.locator("td.name").getAttribute("title")).toBe(c.description);
      expect(await row.locator(".legacy").count()).toBe(c.legacy ? 1 : 0);
    }
  }, 30_000);

  test("the payment detail shows a delivery's last response body as text", async () => {
    const { page } = owner;
    const d = (await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paymentId}`, { key: a.testKey })).body
      .data[0];
    const body = `<img src=x onerror="window.__xss=5">upstream down`;
    await testDb(h.deps).run(
      "update webhook_deliveries set last_status_code = 502, last_response_body = ? where id = ?",
      body,
      d.id,
    );
    await page.goto(`${base}/dashboard#/`);
    await page.goto(`${base}/dashboard#/payments/${paymentId}`);
    await page.waitForSelector(`table.deliveries tr[data-id="${d.id}"] details.response`);
    await page.click(`table.deliveries tr[data-id="${d.id}"] details.response summary`);
    expect(await page.textContent(`table.deliveries tr[data-id="${d.id}"] details.response pre`)).toBe(body);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
  }, 30_000);

  test("a DEVELOPER resends the payment's webhook from the detail page and sees the new deliveries; no refund button", async () => {
    const m = await addMember(h, await loginToken(h, a.email, a.password), "DEVELOPER");
    const dev = await otherTab(m);
    const before = (
      await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paymentId}&limit=100`, { key: a.testKey })
    ).body.total;
    await dev.page.goto(`${base}/dashboard#/payments/${paymentId}`);
    await dev.page.waitForSelector(`table.deliveries tbody tr >> nth=${before - 1}`);
    expect(await dev.page.locator("form.refund").count()).toBe(0);
    await dev.page.click(".actions button >> text=Reenviar webhook");
    await dev.page.waitForSelector("text=Webhook reenviado.");
    const after = (
      await h.call("GET", `/v1/webhooks/deliveries?transactionId=${paymentId}&limit=100`, { key: a.testKey })
    ).body.total;
    expect(after).toBeGreaterThan(before);
    await dev.page.waitForSelector(`table.deliveries tbody tr >> nth=${after - 1}`);
    expect(await dev.page.locator("table.deliveries tbody tr").count()).toBe(after);
  }, 30_000);

  test("developers: a test key is issued with its cleartext shown once and works; revoked, it stops working", async () => {
    const { page } = owner;
    await page.goto(`${base}/dashboard#/developers`);
    await page.waitForSelector("form.new-key");
    await page.fill('form.new-key input[name="label"]', "dashboard key");
    await page.click('form.new-key button[type="submit"]');
    await page.waitForSelector('[data-testid="issued-key"] code');
    const clear = (await page.textContent('[data-testid="issued-key"] code'))!;
    expect(clear).toMatch(/^ak_test_[A-Za-z0-9_-]{32}$/);
    expect((await h.call("GET", "/v1/ping", { key: clear })).body).toEqual({ object: "ping", mode: "test" });
    await page.click('[data-testid="issued-key"] button');
    expect(await page.content()).not.toContain(clear);
    const row = page.locator("table.keys tr", { hasText: "dashboard key" });
    await row.locator("button >> text=Revogar").click();
    await page.waitForSelector("table.keys tr >> text=dashboard key", { state: "detached" });
    expect((await h.call("GET", "/v1/ping", { key: clear })).status).toBe(401);
  }, 30_000);

  test("developers: a member is added with a role, the request log shows the key's calls, the audit log shows the dashboard's actions", async () => {
    const { page } = owner;
    await page.goto(`${base}/dashboard#/`);
    await page.goto(`${base}/dashboard#/developers`);
    await page.waitForSelector("form.new-member");
    await page.fill('form.new-member input[name="email"]', "leitor@example.com");
    await page.fill('form.new-member input[name="password"]', "senha do leitor 123");
    await page.selectOption('form.new-member select[name="role"]', "VIEWER");
    await page.click('form.new-member button[type="submit"]');
    await page.waitForSelector("table.members >> text=leitor@example.com");
    const members = (await h.call("GET", "/v1/account/members", { bearer: await loginToken(h, a.email, a.password) }))
      .body.data;
    expect(members.find((m: any) => m.email === "leitor@example.com")).toMatchObject({ role: "VIEWER" });
    await page.waitForSelector("table.logs code >> text=GET /v1/ping");
    await page.waitForSelector("table.audit");
    const audit = (await h.call("GET", "/v1/account/audit-log", { bearer: await loginToken(h, a.email, a.password) }))
      .body.data;
    expect(
      audit.some(
        (e: any) =>
          e.action === "dashboard.request" && e.target === "POST /v1/account/members" && e.actor_user_id === a.userId,
      ),
    ).toBe(true);
    await page.goto(`${base}/dashboard#/`);
    await page.goto(`${base}/dashboard#/developers`);
    await page.waitForSelector(`table.audit tr[data-id="${audit[0].id}"]`);
    expect(await page.locator("table.audit tbody tr").count()).toBe(audit.length);
  }, 30_000);

  test("MED: the case shows its deadline countdown, takes evidence through the signed upload and an appeal", async () => {
    const { page } = owner;
    const disputed = await apiPost("/v1/payments", {
      amount: 5000,
      paymentMethods: ["PIX"],
      idempotencyKey: `dash-${crypto.randomUUID()}`,
      customerName: "Cliente MED",
    });
    await apiPost(`/v1/test_helpers/charges/${disputed.id}/pay`, {});
    const opened = await apiPost(`/v1/test_helpers/charges/ch_${disputed.id}/med`, {
      reason: "scam",
      response_deadline: "2030-01-01T00:00:00.000Z",
    });
    medCaseId = opened.id;
    await page.goto(`${base}/dashboard#/med`);
    await page.click(`tr[data-id="${opened.id}"] a`);
    await page.waitForSelector('[data-testid="countdown"]');
    expect(await page.textContent('[data-testid="countdown"]')).toMatch(/^Tempo restante: \d+ d \d{2}:\d{2}:\d{2}$/);
    expect(await page.textContent("h1")).toContain(brl(5000));
    const pdf = Buffer.from("%PDF-1.4\n% comprovante de entrega\n%%EOF\n");
    await page.setInputFiles('input[name="evidence"]', {
      name: "entrega.pdf",
      mimeType: "application/pdf",
      buffer: pdf,
    });
    await page.waitForSelector("text=Evidência enviada.");
    const evidence = (await h.call("GET", `/v1/med/cases/${opened.id}/evidence`, { key: a.testKey })).body.data;
    expect(evidence.map((e: any) => [e.file_name, e.file_size, e.mime_type])).toEqual([
      ["entrega.pdf", pdf.length, "application/pdf"],
    ]);
    expect(await page.textContent(`.evidence li[data-id="${evidence[0].id}"] a`)).toBe("entrega.pdf");
    await page.fill('form.appeal textarea[name="reason"]', "Produto entregue; comprovante anexo.");
    await page.click('form.appeal button[type="submit"]');
    await page.waitForSelector("text=Contestação enviada.");
    const c = (await h.call("GET", `/v1/med/cases/${opened.id}`, { key: a.testKey })).body;
    expect(c).toMatchObject({
      status: "appealed",
      appeal_reason: "Produto entregue; comprovante anexo.",
      evidence_count: 1,
    });
    expect(await settledText(page, '[data-testid="case-status"]', "Contestado")).toBe("Contestado");
    expect(await gone(page, '[data-testid="countdown"]')).toBe(true);
  }, 30_000);

  test("settings show the account's fee and settlement delay read-only (only the merchant profile is a form)", async () => {
    const { page } = owner;
    await page.goto(`${base}/dashboard#/settings`);
    await page.waitForSelector('[data-testid="pix-fee"]');
    const s = (await h.call("GET", "/v1/account", { bearer: await loginToken(h, a.email, a.password) })).body.settings;
    const pct = `${Math.floor(s.pix_fee_bps / 100)},${String(s.pix_fee_bps % 100).padStart(2, "0")} %`;
    expect(await page.textContent('[data-testid="pix-fee"]')).toBe(`${pct} + ${brl(s.pix_fee_fixed)}`);
    expect(
      await page.locator("section input:not(form.profile-form input), section form:not(.profile-form)").count(),
    ).toBe(0);
  }, 30_000);

  test("settings in live mode show the Pix connection's status, or that there is none, and no secret", async () => {
    const { page } = owner;
    await page.goto(`${base}/dashboard#/settings`);
    await page.waitForSelector('[data-testid="pix-fee"]');
    expect(await page.locator(".pix-connection").count()).toBe(0);
    await page.check('input[name="mode"][value="live"]');
    await page.waitForSelector('[data-testid="pix-connection-none"]');
    const now = h.clock.nowMs();
    await h.deps.store.tx((uow) =>
      uow.pixProvider.saveActive({
        id: "ppc_dash",
        accountId: a.accountId,
        type: "bcb_pix_v2",
        apiUrl: "https://pix.psp.example/api/v2",
        tokenUrl: "https://pix.psp.example/oauth/token",
        clientId: "client-id-dash",
        clientSecretSealed: "SEALED-SECRET",
        certificate: "PEM",
        privateKeySealed: "SEALED-KEY",
        pixKey: "chave@loja.example",
        certificateFingerprint: "b".repeat(64),
        certificateExpiresAt: Date.UTC(2027, 5, 30, 15),
        webhookUrl: `${base}/v1/provider-webhooks/pix/ppc_dash`,
        webhookRegistered: false,
        createdAt: now,
        updatedAt: now,
      }),
    );
    await page.goto(`${base}/dashboard#/`);
    await page.goto(`${base}/dashboard#/settings`);
    await page.waitForSelector('[data-testid="pix-key"]');
    expect(await page.textContent('[data-testid="pix-key"]')).toBe("chave@loja.example");
    expect(await page.textContent('[data-testid="pix-api-url"]')).toBe("https://pix.psp.example/api/v2");
    expect(await page.textContent('[data-testid="pix-certificate-expires"]')).toContain("30/06/2027");
    expect(await page.textContent('[data-testid="pix-webhook"]')).toContain("não registrado");
    const text = await page.textContent("main");
    for (const secret of ["client-id-dash", "SEALED-SECRET", "SEALED-KEY", "ppc_dash"])
      expect(text).not.toContain(secret);
    await page.check('input[name="mode"][value="test"]');
    await page.waitForSelector('[data-testid="pix-fee"]');
    expect(await page.locator(".pix-connection").count()).toBe(0);
  }, 30_000);

  test("axe-core reports no serious or critical violation on every page: login, home, payments, the detail, MED list and case, webhooks, developers, settings", async () => {
    // One tab walks the single-page app (hash routes, no reload): axe-core is injected once and run on each view.
    const context = await (await sharedChromium()).newContext({ bypassCSP: true });
    const page = await context.newPage();
    const found: Record<string, string[]> = {};
    const check = async (name: string, hash: string | null, ready: string) => {
      if (hash !== null) await page.goto(`${base}/dashboard${hash}`);
      await page.waitForSelector(ready);
      found[name] = await seriousViolations(page);
    };
    try {
      await check("login", "", 'input[name="email"]');
      await page.fill('input[name="email"]', a.email);
      await page.fill('input[name="password"]', a.password);
      await page.click('button[type="submit"]');
      await check("home", null, '[data-testid="pending"]');
      await check("payments", "#/payments", `tr[data-id="${paymentId}"]`);
      await check("payment detail", `#/payments/${paymentId}`, '[data-testid="customer-name"]');
      await check("MED list", "#/med", `tr[data-id="${medCaseId}"]`);
      await check("MED case", `#/med/${medCaseId}`, '[data-testid="case-status"]');
      await check("webhooks", "#/webhooks", "form.new-endpoint");
      await check("developers", "#/developers", "form.new-key");
      await check("settings", "#/settings", '[data-testid="pix-fee"]');
    } finally {
      await context.close();
    }
    expect(found).toEqual(
      Object.fromEntries(
        [
          "login",
          "home",
          "payments",
          "payment detail",
          "MED list",
          "MED case",
          "webhooks",
          "developers",
          "settings",
        ].map((n) => [n, []]),
      ),
    );
  }, 60_000);
});
