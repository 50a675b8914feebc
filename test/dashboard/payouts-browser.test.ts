/**
 * The "Saques" page in Chromium (issue 24 §4; extensions.md "Payouts (money out)"): an OWNER adds
 * a Pix key destination, pays out after the confirmation step (two clicks on "Confirmar saque"
 * send one request), sees the payout pending in the list with its balance taken, opens its status
 * history and cancels it, and the balance comes back; paid and failed payouts read in pt-BR with
 * their history; a malformed amount and a payout beyond the balance are refused; a destination is
 * removed; a VIEWER sees no control that moves money and is refused when forcing one; axe-core
 * finds no serious violation on the page, its forms, the confirmation and the detail.
 * The account's settlement delay is 0 (paid charges are available at once) and its payout delay
 * an hour (payouts stay `pending`, cancellable), both set through the operator API.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Harness, SeededAccount } from "../support/harness";
import { seriousViolations, sharedChromium } from "../support/browser";
import { addMember, loginToken } from "../auth/support";
import { forced, gone, paidPayment, servedHarness, settledText, signIn, visit, type Tab } from "./browser-support";

const OPERATOR_TOKEN = "op-secret-token-payouts-0123456789";
const FEE = 150;

let h: Harness;
let base: string;
let a: SeededAccount;
let owner: Tab;
let viewer: Tab | undefined;

/** Centavos as the merchant reads them, built by hand (an oracle independent of Intl): 123456 -> "R$ 1.234,56". */
function brl(cents: number): string {
  const int = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `R$ ${int},${String(cents % 100).padStart(2, "0")}`;
}

/** The sandbox wallet as the API reports it. */
async function balance(): Promise<{ available: number; pending: number }> {
  const r = await h.call("GET", "/v1/wallets/balance", { key: a.testKey });
  expect(r.status).toBe(200);
  return r.body;
}

async function payouts(query = ""): Promise<any[]> {
  const r = await h.call("GET", `/v1/payouts${query}`, { key: a.testKey });
  expect(r.status).toBe(200);
  return r.body.data;
}

/** A destination registered through the API with the owner's session token (destinations need a session). */
async function destination(body: Record<string, unknown>): Promise<any> {
  const r = await h.call("POST", "/v1/payout_destinations", { bearer: await loginToken(h, a.email, a.password), body });
  expect(r.status).toBe(201);
  return r.body;
}

/** A payout created through the API with the test key; left pending (the account's payout delay is an hour). */
async function apiPayout(amount: number, destinationId: string): Promise<any> {
  const r = await h.call("POST", "/v1/payouts", {
    key: a.testKey,
    headers: { "idempotency-key": `dash-${crypto.randomUUID()}` },
    body: { amount, destination_id: destinationId },
  });
  expect(r.status).toBe(201);
  return r.body;
}

beforeAll(async () => {
  ({ h, base } = servedHarness({ operatorToken: OPERATOR_TOKEN }));
  a = await h.seedAccount({ name: "Padaria dos Saques" });
  const s = await h.call("PATCH", `/v1/operator/accounts/${a.accountId}`, {
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    body: { settlement_delay_seconds: 0, payout_delay_seconds: 3600, payout_fee_fixed: FEE },
  });
  expect(s.status).toBe(200);
  await paidPayment(h, a, 500000, "Cliente Saque");
  owner = await signIn(base, a.email, a.password);
}, 60_000);

afterAll(async () => {
  await owner?.context.close();
  await viewer?.context.close();
  await h?.app.stop(true);
});

describe("the Saques page in the browser", () => {
  test("an OWNER adds a Pix key destination, pays out after the confirmation step, cancels the pending payout from its history, and the balance comes back", async () => {
    const { page, errors } = owner;
    const before = await balance();
    expect(before.available).toBeGreaterThan(200000);
    await visit(page, base, "#/payouts", "form.new-destination");
    expect(await settledText(page, '[data-testid="payout-available"] .value', brl(before.available))).toBe(
      brl(before.available),
    );
    expect(await page.textContent("main h1")).toBe("Saques");

    // Add a CPF key typed with its punctuation: the API gets the digits.
    await page.check('form.new-destination input[name="type"][value="pix_key"]');
    await page.selectOption('form.new-destination select[name="pix_key_type"]', "cpf");
    await page.fill('form.new-destination input[name="pix_key"]', "529.982.247-25");
    await page.fill('form.new-destination input[name="name"]', "Maria Silva");
    await page.click('form.new-destination button[type="submit"]');
    await page.waitForSelector("table.destinations tbody tr");
    const dests = (await h.call("GET", "/v1/payout_destinations", { key: a.testKey })).body.data;
    expect(dests).toHaveLength(1);
    // A CPF key is shown masked (extensions.md); its middle digits are the ones typed.
    expect(dests[0]).toMatchObject({
      type: "pix_key",
      pix_key_type: "cpf",
      pix_key: "***.982.247-**",
      name: "Maria Silva",
    });
    expect(await page.textContent(`table.destinations tr[data-id="${dests[0].id}"] .name`)).toBe(
      "Chave Pix CPF: ***.982.247-** · Maria Silva",
    );
    expect(await page.textContent("p.notice")).toBe("Destino adicionado.");

    // The amount typed the Brazilian way; the confirmation shows amount, fee, total and destination, and sends nothing yet.
    await page.fill('form.new-payout input[name="amount"]', "1.234,56");
    await page.selectOption('form.new-payout select[name="destination_id"]', dests[0].id);
    await page.fill('form.new-payout input[name="description"]', "Saque de teste");
    await page.click('form.new-payout button[type="submit"]');
    await page.waitForSelector(".payout-confirm");
    expect(await page.textContent('[data-testid="confirm-amount"]')).toBe("R$ 1.234,56");
    expect(await page.textContent('[data-testid="confirm-fee"]')).toBe(brl(FEE));
    expect(await page.textContent('[data-testid="confirm-total"]')).toBe(brl(123456 + FEE));
    expect(await page.textContent('[data-testid="confirm-destination"]')).toBe(
      "Chave Pix CPF: ***.982.247-** · Maria Silva",
    );
    expect(await payouts()).toEqual([]);

    // Two clicks in the same instant send one request (and its Idempotency-Key would make a second a replay).
    const sent: string[] = [];
    const onRequest = (r: import("playwright-core").Request) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/v1/payouts")
        sent.push(r.headers()["idempotency-key"] ?? "");
    };
    page.on("request", onRequest);
    await page.evaluate(() => {
      const b = document.querySelector<HTMLButtonElement>(".payout-confirm button")!;
      b.click();
      b.click();
    });
    expect(await gone(page, ".payout-confirm")).toBe(true);
    expect(await page.textContent("p.notice")).toBe("Saque criado.");
    expect(await page.locator("p.error").count()).toBe(0);
    page.off("request", onRequest);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^dash-payout-[0-9a-f-]{36}$/);
    const made = await payouts();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      amount: 123456,
      fee: FEE,
      status: "pending",
      description: "Saque de teste",
      currency: "BRL",
    });
    expect(made[0].destination.id).toBe(dests[0].id);
    const after = await balance();
    expect(after.available).toBe(before.available - 123456 - FEE);
    expect(await settledText(page, '[data-testid="payout-available"] .value', brl(after.available))).toBe(
      brl(after.available),
    );
    const row = `table.payouts tr[data-id="${made[0].id}"]`;
    await page.waitForSelector(row);
    expect(await page.textContent(`${row} .status`)).toBe("pendente");
    expect(await page.textContent(`${row} .num`)).toBe("R$ 1.234,56");

    // The detail: status history, then cancel while pending.
    await page.click(`${row} a`);
    await page.waitForSelector('[data-testid="payout-status"]');
    expect(await page.textContent('[data-testid="payout-status"]')).toBe("pendente");
    expect(await page.textContent('[data-testid="payout-fee"]')).toBe(brl(FEE));
    expect(
      await page
        .locator('[data-testid="payout-history"] li')
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-step"))),
    ).toEqual(["created"]);
    await page.click('.actions button:has-text("Cancelar saque")');
    expect(await settledText(page, '[data-testid="payout-status"]', "cancelado")).toBe("cancelado");
    expect(
      await page
        .locator('[data-testid="payout-history"] li')
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-step"))),
    ).toEqual(["created", "cancelled"]);
    expect(await page.textContent('[data-testid="payout-history"] li[data-step="cancelled"]')).toContain(
      "Cancelado em",
    );
    expect(await page.locator('.actions button:has-text("Cancelar saque")').count()).toBe(0);
    expect((await payouts())[0].status).toBe("cancelled");
    expect((await balance()).available).toBe(before.available);

    await visit(page, base, "#/payouts", row);
    expect(await settledText(page, '[data-testid="payout-available"] .value', brl(before.available))).toBe(
      brl(before.available),
    );
    expect(await page.textContent(`${row} .status`)).toBe("cancelado");
    expect(errors).toEqual([]);
  }, 60_000);

  test("paid and failed payouts read pago and falhou, the status filter keeps only its own, and the detail tells when it was paid or why it failed", async () => {
    const { page, errors } = owner;
    const d = await destination({ type: "pix_key", pix_key_type: "email", pix_key: "financeiro@padaria.example.com" });
    const paid = await apiPayout(1000, d.id);
    const failed = await apiPayout(2000, d.id);
    expect((await h.call("POST", `/v1/test_helpers/payouts/${paid.id}/pay`, { key: a.testKey, body: {} })).status).toBe(
      200,
    );
    expect(
      (
        await h.call("POST", `/v1/test_helpers/payouts/${failed.id}/fail`, {
          key: a.testKey,
          body: { failure_code: "CONTA_INVALIDA" },
        })
      ).status,
    ).toBe(200);
    const failedNow = (await h.call("GET", `/v1/payouts/${failed.id}`, { key: a.testKey })).body;

    await visit(page, base, "#/payouts", `table.payouts tr[data-id="${failed.id}"]`);
    expect(await page.textContent(`table.payouts tr[data-id="${paid.id}"] .status`)).toBe("pago");
    expect(await page.textContent(`table.payouts tr[data-id="${failed.id}"] .status`)).toBe("falhou");
    const options = await page
      .locator('select[name="status"] option')
      .evaluateAll((els) => els.map((e) => [(e as HTMLOptionElement).value, e.textContent]));
    expect(options).toEqual([
      ["", "Todos"],
      ["pending", "pendente"],
      ["processing", "em processamento"],
      ["paid", "pago"],
      ["failed", "falhou"],
      ["cancelled", "cancelado"],
    ]);
    await page.selectOption('select[name="status"]', "paid");
    expect(await gone(page, `table.payouts tr[data-id="${failed.id}"]`)).toBe(true);
    expect(
      await page.locator("table.payouts tbody tr").evaluateAll((els) => els.map((e) => e.getAttribute("data-id"))),
    ).toEqual([paid.id]);

    await visit(page, base, `#/payouts/${paid.id}`, '[data-testid="payout-status"]');
    expect(await page.textContent('[data-testid="payout-status"]')).toBe("pago");
    expect(
      await page
        .locator('[data-testid="payout-history"] li')
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-step"))),
    ).toEqual(["created", "paid"]);
    expect(await page.locator('.actions button:has-text("Cancelar saque")').count()).toBe(0);

    await visit(page, base, `#/payouts/${failed.id}`, '[data-testid="payout-status"]');
    expect(await page.textContent('[data-testid="payout-status"]')).toBe("falhou");
    const failedLine = await page.textContent('[data-testid="payout-history"] li[data-step="failed"]');
    expect(failedLine).toContain("Falhou em");
    expect(failedLine).toContain(
      `Motivo da falha: ${[failedNow.failure_code, failedNow.failure_message].filter(Boolean).join(": ")}`,
    );
    expect(failedLine).toContain("CONTA_INVALIDA");
    expect(errors).toEqual([]);
  }, 60_000);

  test("a malformed amount never reaches the confirmation, and a payout beyond the balance is refused in pt-BR with nothing written and the confirmation kept open", async () => {
    const { page, errors } = owner;
    const d = await destination({ type: "pix_key", pix_key_type: "phone", pix_key: "+5511987654321" });
    const made = (await payouts()).length;
    const available = (await balance()).available;
    await visit(page, base, "#/payouts", `table.destinations tr[data-id="${d.id}"]`);
    await page.selectOption('form.new-payout select[name="destination_id"]', d.id);
    await page.fill('form.new-payout input[name="amount"]', "12,345");
    await page.click('form.new-payout button[type="submit"]');
    expect(await page.textContent("p.error")).toBe("Digite um valor em reais, por exemplo 1.234,56.");
    expect(await page.locator(".payout-confirm").count()).toBe(0);

    await page.fill('form.new-payout input[name="amount"]', brl(available + 1).replace("R$ ", ""));
    await page.click('form.new-payout button[type="submit"]');
    await page.waitForSelector(".payout-confirm");
    expect(await page.textContent('[data-testid="confirm-amount"]')).toBe(brl(available + 1));
    await page.click('.payout-confirm button:has-text("Confirmar saque")');
    await page.waitForSelector("p.error");
    expect(await page.textContent("p.error")).toBe("Saldo disponível insuficiente para o valor mais a tarifa.");
    expect(await page.locator(".payout-confirm").count()).toBe(1);
    expect(await payouts()).toHaveLength(made);
    expect((await balance()).available).toBe(available);
    await page.click('.payout-confirm button:has-text("Cancelar")');
    expect(await gone(page, ".payout-confirm")).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);

  test("an OWNER removes a destination after confirming, and it leaves the list and the payout form", async () => {
    const { page, errors } = owner;
    const d = await destination({
      type: "pix_key",
      pix_key_type: "evp",
      pix_key: "123e4567-e89b-12d3-a456-426614174000",
    });
    await visit(page, base, "#/payouts", `table.destinations tr[data-id="${d.id}"]`);
    await page.click(`table.destinations tr[data-id="${d.id}"] button`);
    expect(await gone(page, `table.destinations tr[data-id="${d.id}"]`)).toBe(true);
    expect(await page.textContent("p.notice")).toBe("Destino removido.");
    const left = (await h.call("GET", "/v1/payout_destinations", { key: a.testKey })).body.data.map((x: any) => x.id);
    expect(left).not.toContain(d.id);
    expect(left.length).toBeGreaterThan(0);
    expect(await page.locator(`select[name="destination_id"] option[value="${d.id}"]`).count()).toBe(0);
    expect(errors).toEqual([]);
  }, 60_000);

  test("a VIEWER sees destinations and payouts but no control that adds, removes, pays out or cancels, and the server refuses them when forced from the page", async () => {
    const d = await destination({
      type: "bank_account",
      name: "Maria Silva",
      tax_id: "52998224725",
      ispb: "00000000",
      branch: "1",
      account: "123456",
      account_type: "checking",
    });
    const pending = await apiPayout(500, d.id);
    const m = await addMember(h, await loginToken(h, a.email, a.password), "VIEWER");
    viewer = await signIn(base, m.email, m.password);
    const { page, errors } = viewer;
    await visit(page, base, "#/payouts", `table.destinations tr[data-id="${d.id}"]`);
    await page.waitForSelector(`table.payouts tr[data-id="${pending.id}"]`);
    expect(await page.locator("form.new-destination, form.new-payout, table.destinations button").count()).toBe(0);
    expect(await page.textContent("p.note")).toBe("Somente OWNER e ADMIN cadastram destinos e fazem saques.");
    await visit(page, base, `#/payouts/${pending.id}`, '[data-testid="payout-status"]');
    expect(await page.textContent('[data-testid="payout-status"]')).toBe("pendente");
    expect(await page.locator(".actions button").count()).toBe(0);

    const before = JSON.stringify([
      (await h.call("GET", "/v1/payout_destinations", { key: a.testKey })).body,
      await payouts(),
      await balance(),
    ]);
    expect(
      await forced(page, "POST", "/v1/payout_destinations", {
        type: "pix_key",
        pix_key_type: "evp",
        pix_key: "123e4567-e89b-12d3-a456-426614174000",
      }),
    ).toEqual({ status: 403, code: "API_KEY_ROLE_REQUIRED" });
    expect((await forced(page, "DELETE", `/v1/payout_destinations/${d.id}`)).status).toBe(403);
    expect(await forced(page, "POST", `/v1/payouts/${pending.id}/cancel`, {})).toEqual({
      status: 403,
      code: "role_forbidden",
    });
    expect(
      JSON.stringify([
        (await h.call("GET", "/v1/payout_destinations", { key: a.testKey })).body,
        await payouts(),
        await balance(),
      ]),
    ).toBe(before);
    expect(errors).toEqual([]);
  }, 60_000);

  test("axe-core reports no serious or critical violation on the Saques page, its Pix key and bank account forms, the confirmation step and the detail", async () => {
    const list = await payouts();
    expect(list.length).toBeGreaterThan(0);
    const context = await (await sharedChromium()).newContext({ bypassCSP: true });
    const page = await context.newPage();
    const found: Record<string, string[]> = {};
    try {
      await page.goto(`${base}/dashboard#/payouts`);
      await page.fill('input[name="email"]', a.email);
      await page.fill('input[name="password"]', a.password);
      await page.click('button[type="submit"]');
      await page.waitForSelector("table.payouts tbody tr");
      await page.waitForSelector("table.destinations tbody tr");
      found["payouts, Pix key form"] = await seriousViolations(page);
      await page.check('form.new-destination input[name="type"][value="bank_account"]');
      await page.waitForSelector('form.new-destination input[name="ispb"]');
      found["bank account form"] = await seriousViolations(page);
      await page.fill('form.new-payout input[name="amount"]', "10,00");
      await page.click('form.new-payout button[type="submit"]');
      await page.waitForSelector(".payout-confirm");
      found.confirmation = await seriousViolations(page);
      await page.goto(`${base}/dashboard#/payouts/${list[0].id}`);
      await page.waitForSelector('[data-testid="payout-status"]');
      found.detail = await seriousViolations(page);
    } finally {
      await context.close();
    }
    expect(found).toEqual({ "payouts, Pix key form": [], "bank account form": [], confirmation: [], detail: [] });
  }, 60_000);
});
