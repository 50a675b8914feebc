import { describe, expect, test } from "bun:test";
import { balance, harness, newCharge, raw } from "../charges/support";
import { testDb } from "../support/test-db";

const page = (h: any, rawId: string, base = "/c") => h.call("GET", `${base}/${rawId}`);
const escapeHtml = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

describe("the hosted checkout page", () => {
  test("shows amount, merchant, description, payer, QR, copy-and-paste BR Code, expiry and the sandbox simulate button", async () => {
    const h = harness();
    const a = await h.seedAccount({ name: "Café Bom & Cia" });
    const c = await newCharge(h, a, {
      amount: 123456,
      expires_in: 600,
      description: "Pedido 42: 2 cafés",
      customer: { name: "Maria da Silva" },
    });
    const r = await page(h, raw(c.id));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.text).toContain('<html lang="pt-BR">');
    expect(r.text).toContain('name="viewport"');
    expect(r.text).toContain('<h1 class="amount">R$\u00a01.234,56</h1>');
    expect(r.text).toContain('data-testid="merchant"><bdi>Café Bom &amp; Cia</bdi>');
    expect(r.text).toContain('data-testid="description"><bdi>Pedido 42: 2 cafés</bdi>');
    expect(r.text).toContain('data-testid="customer">Pagador: <bdi>Maria da Silva</bdi>');
    expect(r.text).toContain(`src="../v1/qr/${raw(c.id)}.png"`);
    expect(r.text).toContain(`>${escapeHtml(c.pix.br_code)}</textarea>`);
    expect(r.text).toContain(
      '<button type="button" data-copy="br-code" data-copy-done="Código Pix copiado">Copiar código Pix</button>',
    );
    expect(r.text).toContain(`data-expires="${Date.parse(c.pix.expires_at)}"`);
    expect(r.text).toContain(`data-now="${Date.parse("2026-11-20T12:00:00.000Z")}"`);
    // 12:10 UTC is 09:10 in São Paulo (UTC-3).
    expect(r.text).toContain("Válido até 20/11/2026 09:10 (horário de Brasília)");
    expect(r.text).toContain(">SANDBOX — simular pagamento (Pix)</button>");
    expect(r.text).toContain('data-state="pending"');
  });

  test("the sandbox simulate endpoint pays a sandbox charge and the page then shows the paid screen", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { amount: 2500 });
    const status = await h.call("GET", `/c/${raw(c.id)}/status`);
    expect(status.body).toEqual({ status: "pending", expires_at: c.pix.expires_at });
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 0 });
    const sim = await h.call("POST", `/c/${raw(c.id)}/simulate`, { body: {} });
    expect(sim.status).toBe(200);
    expect(sim.body).toEqual({ status: "paid" });
    expect((await h.call("GET", `/c/${raw(c.id)}/status`)).body.status).toBe("paid");
    const r = await page(h, raw(c.id));
    expect(r.text).toContain('data-state="paid"');
    expect(r.text).toContain("<h2>Pagamento confirmado</h2>");
    expect(r.text).not.toContain("simular pagamento");
    expect(r.text).toContain('data-status-url=""');
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 2500 });
    const twice = await h.call("POST", `/c/${raw(c.id)}/simulate`, { body: {} });
    expect(twice.status).toBe(400);
    expect(twice.body.error.code).toBe("invalid_state");
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 2500 });
  });

  test("an expired charge shows the expired screen and a failed one the failed screen", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { expires_in: 60 });
    h.clock.advance(60);
    await h.deps.jobs.drain();
    const r = await page(h, raw(c.id));
    expect(r.text).toContain('data-state="expired"');
    expect(r.text).toContain("<h2>Cobrança expirada</h2>");
    expect(r.text).not.toContain("simular pagamento");
    const d = await newCharge(h, a);
    await h.call("POST", `/v1/test_helpers/charges/${d.id}/pay`, { key: a.testKey, body: { outcome: "decline" } });
    const f = await page(h, raw(d.id));
    expect(f.text).toContain('data-state="failed"');
    expect(f.text).toContain("<h2>Pagamento não concluído</h2>");
  });

  test("a live charge has no sandbox control and its simulate endpoint is 404", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a);
    await testDb(h.deps).run("update transactions set livemode = ? where id = ?", true, raw(c.id));
    const r = await page(h, raw(c.id));
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("simular pagamento");
    expect(r.text).not.toContain("data-sandbox-pay=");
    expect(r.text).not.toContain("SANDBOX");
    expect((await h.call("POST", `/c/${raw(c.id)}/simulate`, { body: {} })).status).toBe(404);
    expect((await h.call("GET", `/c/${raw(c.id)}/status`)).body.status).toBe("pending");
  });

  test("an unknown id gets a 404 page", async () => {
    const h = harness();
    for (const id of ["0123456789abcdef0123456789abcdef", "nope", "ch_0123456789abcdef0123456789abcdef"]) {
      const r = await page(h, id);
      expect(r.status).toBe(404);
      expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(r.text).toContain("Cobrança não encontrada");
    }
    expect((await h.call("GET", "/c/0123456789abcdef0123456789abcdef/status")).status).toBe(404);
  });

  test("the page is served at the path of COFRE_CHECKOUT_URL_BASE", async () => {
    const h = harness({ checkoutUrlBase: "https://pay.cofre.test/pagar" });
    const a = await h.seedAccount();
    const c = await newCharge(h, a);
    expect(c.checkout_url).toBe(`https://pay.cofre.test/pagar/${raw(c.id)}`);
    expect((await page(h, raw(c.id), "/pagar")).status).toBe(200);
    expect((await page(h, raw(c.id), "/c")).status).toBe(404);
  });
});
