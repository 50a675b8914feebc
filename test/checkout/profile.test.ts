/**
 * The merchant profile where payers read it (extensions.md "Merchant profile and a repeatable
 * first run"): the checkout page (trade name, CNPJ whole or CPF masked), the paid screen's
 * "Baixar comprovante" (the receipt PDF by the page's unguessable raw id), receipts and boletos.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHarness, type Harness, type SeededAccount } from "../support/harness";
import { loginToken } from "../auth/support";
import { pdfText } from "../support/pdf";
import { createPayment, pay } from "../payments/support";

setDefaultTimeout(30_000);

async function setProfile(h: Harness, a: SeededAccount, body: Record<string, unknown>) {
  const r = await h.call("PATCH", "/v1/account/profile", { bearer: await loginToken(h, a.email, a.password), body });
  expect(r.status).toBe(200);
}

describe("the merchant profile on the checkout page", () => {
  test("shows the trade name and the CNPJ whole; the title names the trade name", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ name: "conta-123" });
    await setProfile(h, a, {
      trade_name: "Loja Azul",
      legal_name: "Loja Azul Comércio de Roupas Ltda.",
      tax_id: "11.222.333/0001-81",
    });
    const p = await createPayment(h, a, { amount: 1990, metadata: { description: "Camiseta azul" } });
    const r = await h.call("GET", `/c/${p.id}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain(
      `<p class="merchant" data-testid="merchant"><bdi>Loja Azul</bdi> <span class="badge">SANDBOX</span></p>`,
    );
    expect(r.text).toContain(`<p class="merchant-id" data-testid="merchant-tax-id">CNPJ 11.222.333/0001-81</p>`);
    expect(r.text).toContain("<title>Pagamento — Loja Azul</title>");
    expect(r.text.slice(0, r.text.indexOf("</header>"))).not.toContain("conta-123");
  });

  test("a merchant identified by CPF shows it masked as payers expect; no profile shows no document line", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ name: "Ana Artesã" });
    const p = await createPayment(h, a, { amount: 500 });
    const before = await h.call("GET", `/c/${p.id}`);
    expect(before.text).not.toContain("merchant-tax-id");
    expect(before.text).toContain("<bdi>Ana Artesã</bdi>");
    await setProfile(h, a, { tax_id: "529.982.247-25" });
    const r = await h.call("GET", `/c/${p.id}`);
    expect(r.text).toContain(`data-testid="merchant-tax-id">CPF ***.982.247-**</p>`);
    expect(r.text).not.toContain("52998224725");
    expect(r.text).not.toContain("529.982.247-25");
  });
});

describe("Baixar comprovante", () => {
  test("the paid screen links the receipt PDF, which names the merchant's profile and the payer", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ name: "conta-123" });
    await setProfile(h, a, {
      trade_name: "Loja Azul",
      legal_name: "Loja Azul Comércio de Roupas Ltda.",
      tax_id: "11222333000181",
    });
    const p = await createPayment(h, a, { amount: 1990, metadata: { description: "Camiseta azul" } });
    const pending = await h.call("GET", `/c/${p.id}`);
    expect(pending.text).not.toContain("Baixar comprovante");
    const early = await h.call("GET", `/c/${p.id}/comprovante.pdf`);
    expect(early.status).toBe(404);
    expect(early.body.error.code).toBe("not_found");
    await pay(h, a, p.id, { payer_name: "Maria Souza", payer_tax_id: "52998224725" });
    const paid = await h.call("GET", `/c/${p.id}`);
    const link = /<a class="button receipt" data-testid="receipt" href="([^"]+)" download>Baixar comprovante<\/a>/.exec(
      paid.text,
    );
    expect(link?.[1]).toBe(`${p.id}/comprovante.pdf`);
    const res = await h.app.handle(new Request(new URL(link![1]!, `http://localhost/c/${p.id}`)));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${p.id}.pdf"`);
    const lines = (await pdfText(new Uint8Array(await res.arrayBuffer()))).split("\n");
    for (const l of [
      "Nome: Loja Azul",
      "Razão social: Loja Azul Comércio de Roupas Ltda.",
      "CNPJ: 11.222.333/0001-81",
      "Nome: Maria Souza",
      "CPF/CNPJ: ***.982.247-**",
      "Descrição: Camiseta azul",
      "Situação: Pago (PAID)",
    ])
      expect(lines).toContain(l);
    expect((await h.call("GET", `/c/${"0".repeat(32)}/comprovante.pdf`)).status).toBe(404);
  });

  test("the boleto names the beneficiary from the profile (razão social and CNPJ)", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ name: "conta-123" });
    await setProfile(h, a, { legal_name: "Loja Azul Comércio de Roupas Ltda.", tax_id: "11222333000181" });
    const p = await createPayment(h, a, {
      amount: 1990,
      paymentMethods: ["BOLETO"],
      customerName: "Maria Souza",
      customerDocument: "52998224725",
    });
    const res = await h.app.handle(new Request(`http://localhost/v1/boletos/${p.id}.pdf`));
    expect(res.status).toBe(200);
    const lines = (await pdfText(new Uint8Array(await res.arrayBuffer()))).split("\n");
    expect(lines.some((l) => l.startsWith("Loja Azul Comércio de Roupas Ltda. — CNPJ 11.222.333/0001-81"))).toBe(true);
    expect(lines).toContain("Beneficiário Vencimento");
  });
});
