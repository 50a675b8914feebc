import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { transactions } from "../../db/schema";
import { balance, harness, newCharge, raw } from "../charges/support";

const page = (h: any, rawId: string, base = "/c") => h.call("GET", `${base}/${rawId}`);

describe("the hosted checkout page", () => {
  test("shows amount, merchant, QR, copy-and-paste BR Code, countdown and the sandbox simulate button", async () => {
    const h = harness();
    const a = await h.seedAccount({ name: "Café <Bom> & Cia" });
    const c = await newCharge(h, a, { amount: 1234, expires_in: 600 });
    const r = await page(h, raw(c.id));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.text).toContain('<html lang="pt-BR">');
    expect(r.text).toContain('name="viewport"');
    expect(r.text).toContain("R$\u00a012,34");
    expect(r.text).toContain("Café &lt;Bom&gt; &amp; Cia");
    expect(r.text).not.toContain("<Bom>");
    expect(r.text).toContain(`src="${c.pix.qr_code_url}"`);
    const escaped = c.pix.br_code.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
    expect(r.text).toContain(`>${escaped}</textarea>`);
    expect(r.text).toContain("Copiar código Pix");
    expect(r.text).toContain(`data-expires="${Date.parse(c.pix.expires_at)}"`);
    expect(r.text).toContain(`data-now="${Date.parse("2026-11-20T12:00:00.000Z")}"`);
    expect(r.text).toContain("Simulate payment");
    expect(r.text).toContain("SANDBOX");
    expect(r.text).toContain('data-state="pending"');
  });

  test("loads no external asset and sends a strict CSP with a script nonce", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a);
    const r = await page(h, raw(c.id));
    const csp = r.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1];
    expect(r.text).toContain(`<script nonce="${nonce}">`);
    expect(r.text).not.toMatch(/<link|<script[^>]+src=|@import|url\(/);
    const srcs = [...r.text.matchAll(/src="([^"]+)"/g)].map((m) => m[1]!);
    for (const s of srcs) expect(s.startsWith("https://pay.cofre.test/")).toBe(true);
    expect(r.headers.get("cache-control")).toBe("no-store");
  });

  test("Simulate payment pays a sandbox charge and the page then shows the paid screen", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { amount: 2500 });
    const status = await h.call("GET", `/c/${raw(c.id)}/status`);
    expect(status.body).toEqual({ status: "pending", expires_at: c.pix.expires_at });
    const sim = await h.call("POST", `/c/${raw(c.id)}/simulate`, { body: {} });
    expect(sim.status).toBe(200);
    expect(sim.body).toEqual({ status: "paid" });
    expect((await h.call("GET", `/c/${raw(c.id)}/status`)).body.status).toBe("paid");
    const r = await page(h, raw(c.id));
    expect(r.text).toContain('data-state="paid"');
    expect(r.text).toContain("Pagamento confirmado");
    expect(r.text).not.toContain("Simulate payment");
    expect(await balance(h, a.testKey)).toEqual({ available: 0, pending: 2500 });
    const twice = await h.call("POST", `/c/${raw(c.id)}/simulate`, { body: {} });
    expect(twice.status).toBe(400);
    expect(twice.body.error.code).toBe("invalid_state");
  });

  test("an expired charge shows the expired screen and a failed one the failed screen", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a, { expires_in: 60 });
    h.clock.advance(60);
    await h.deps.jobs.drain();
    const r = await page(h, raw(c.id));
    expect(r.text).toContain('data-state="expired"');
    expect(r.text).toContain("Cobrança expirada");
    const d = await newCharge(h, a);
    await h.call("POST", `/v1/test_helpers/charges/${d.id}/pay`, { key: a.testKey, body: { outcome: "decline" } });
    expect((await page(h, raw(d.id))).text).toContain('data-state="failed"');
  });

  test("a live charge has no simulate button and its simulate endpoint is 404", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const c = await newCharge(h, a);
    h.deps.db.update(transactions).set({ livemode: true }).where(eq(transactions.id, raw(c.id))).run();
    const r = await page(h, raw(c.id));
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("Simulate payment");
    expect(r.text).not.toContain("SANDBOX");
    expect((await h.call("POST", `/c/${raw(c.id)}/simulate`, { body: {} })).status).toBe(404);
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
  });
});
