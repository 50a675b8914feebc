import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { updateAccountSettings } from "../../src/domain/accounts/settings";
import { createHarness, type Harness } from "../support/harness";
import { pdfInfo, pdfQrCodes, pdfText } from "../support/pdf";
import { createPayment, forceLive, key, pay } from "./support";

// The first PDF of a process loads fontkit and warms up its layout code: seconds on a loaded box.
setDefaultTimeout(30_000);

/** The receipt's PDF bytes from the contract's JSON answer. */
async function receiptJsonPdf(h: Harness, apiKey: string, id: string): Promise<Buffer> {
  const r = await h.call("GET", `/v1/payments/${id}/receipt`, { key: apiKey });
  expect(r.status).toBe(200);
  return Buffer.from(r.body.base64, "base64");
}

describe("GET /v1/payments/{id}/receipt: content (pt-BR)", () => {
  test("a paid Pix receipt shows the merchant's legal name and CNPJ, the masked payer, the description, R$ amounts and São Paulo times", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ name: "Café São Jorge" });
    await updateAccountSettings(h.deps.store, a.accountId, {
      legal_name: "Café São Jorge Comércio de Alimentos Ltda.",
      tax_id: "11.222.333/0001-81",
    });
    const p = await createPayment(h, a, {
      amount: 123456,
      customerName: "João da Silva",
      customerDocument: "529.982.247-25",
      metadata: { description: "Pedido 1234 — pão de queijo" },
    });
    h.clock.advance(90);
    const charge = await pay(h, a, p.id);
    const bytes = await receiptJsonPdf(h, a.testKey, p.id);
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(bytes);
    for (const line of [
      "Comprovante de pagamento",
      "Recebedor",
      "Nome: Café São Jorge",
      "Razão social: Café São Jorge Comércio de Alimentos Ltda.",
      "CNPJ: 11.222.333/0001-81",
      "Pagador",
      "Nome: João da Silva",
      "CPF/CNPJ: ***.982.247-**",
      "Valor: R$ 1.234,56",
      "Forma de pagamento: Pix",
      "Situação: Pago (PAID)",
      "Descrição: Pedido 1234 — pão de queijo",
      "Criado em: 20/11/2026 09:00:00",
      "Pago em: 20/11/2026 09:01:30",
      `ID fim a fim (E2E): ${charge.settlement.end_to_end_id}`,
      `ID da transação: ${p.id}`,
      "SANDBOX",
    ])
      expect(text.split("\n")).toContain(line);
    expect(text).not.toContain("529.982.247-25");
    expect(text).not.toContain("52998224725");
    expect(await pdfQrCodes(bytes)).toEqual([`http://localhost:3000/c/${p.id}`]);
    expect((await pdfInfo(bytes)).pages).toBe(1);
  });

  test("a refunded transaction's receipt shows the refunded amount and time", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { amount: 5000 });
    await pay(h, a, p.id);
    const rf = await h.call("POST", `/v1/payments/${p.id}/refund`, { key: a.testKey, body: { idempotencyKey: key() } });
    expect(rf.status).toBe(201);
    for (let i = 0; i < 2; i++) {
      h.clock.advance(2);
      await h.deps.jobs.drain();
    }
    expect((await h.call("GET", `/v1/payments/${p.id}`, { key: a.testKey })).body.status).toBe("REFUNDED");
    const lines = (await pdfText(await receiptJsonPdf(h, a.testKey, p.id))).split("\n");
    for (const line of [
      "Situação: Estornado (REFUNDED)",
      "Valor: R$ 50,00",
      "Valor estornado: R$ 50,00",
      "Estornado em: 20/11/2026 09:00:04",
    ])
      expect(lines).toContain(line);
  });

  test("cancelled and approved card transactions have receipts; a card receipt has no end-to-end id", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const c = await createPayment(h, a);
    await h.call("POST", `/v1/payments/${c.id}/cancel`, { key: a.testKey });
    expect(await pdfText(await receiptJsonPdf(h, a.testKey, c.id))).toContain("Situação: Cancelado (CANCELLED)");
    const card = await createPayment(h, a, { paymentMethods: ["CREDIT_CARD"] });
    await h.call("POST", `/c/${card.id}/card`, { body: { number: "4242424242424242" } });
    const text = await pdfText(await receiptJsonPdf(h, a.testKey, card.id));
    expect(text).toContain("Forma de pagamento: Cartão de crédito");
    expect(text).toContain("Situação: Aprovado (APPROVED)");
    expect(text).not.toContain("ID fim a fim");
  });

  test("a live receipt carries no SANDBOX marking; without legal name, tax id or payer data those lines say so or are absent", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ name: "Loja Ação" });
    const p = await createPayment(h, a, { amount: 990 });
    await pay(h, a, p.id);
    const sandbox = await pdfText(await receiptJsonPdf(h, a.testKey, p.id));
    expect(sandbox).toContain("SANDBOX");
    await forceLive(h, p.id);
    const text = await pdfText(await receiptJsonPdf(h, a.liveKey, p.id));
    expect(text).not.toContain("SANDBOX");
    expect(text).not.toContain("Razão social");
    expect(text).not.toContain("CNPJ:");
    expect(text).not.toContain("CPF/CNPJ:");
    expect(text.split("\n")).toContain("Nome: Loja Ação");
    expect(text.split("\n")).toContain("Nome: Não informado");
    expect(text.split("\n")).toContain("Valor: R$ 9,90");
  });
});

describe("GET /v1/payments/{id}/receipt: as a file (Accept: application/pdf)", () => {
  const get = (h: Harness, apiKey: string, id: string, accept?: string) =>
    h.app.handle(
      new Request(`http://localhost/v1/payments/${id}/receipt`, {
        headers: { apikey: apiKey, ...(accept ? { accept } : {}) },
      }),
    );

  test("answers the PDF bytes as an attachment named after the transaction, the same document as the JSON's base64", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ name: "Padaria Pão Quente" });
    const p = await createPayment(h, a, { amount: 4990 });
    await pay(h, a, p.id);
    for (const accept of ["application/pdf", "application/json;q=0.5, application/pdf"]) {
      const res = await get(h, a.testKey, p.id, accept);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${p.id}.pdf"`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(Buffer.from(bytes).subarray(0, 5).toString()).toBe("%PDF-");
      expect(Buffer.from(bytes).equals(await receiptJsonPdf(h, a.testKey, p.id))).toBe(true);
      expect(await pdfText(bytes)).toContain("Valor: R$ 49,90");
    }
  });

  test("without Accept, with application/json, */* or a JSON preference the contract's JSON is unchanged", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    await pay(h, a, p.id);
    for (const accept of [
      undefined,
      "application/json",
      "*/*",
      "application/pdf;q=0.5, application/json",
      "application/pdf;q=0",
    ]) {
      const res = await get(h, a.testKey, p.id, accept);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("application/json");
      const body = (await res.json()) as Record<string, string>;
      expect(Object.keys(body).sort()).toEqual(["base64", "contentType"]);
      expect(body.contentType).toBe("application/pdf");
    }
  });

  test("errors stay in the JSON envelope: a transaction without a final outcome is 400, another account's is 404", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const p = await createPayment(h, a);
    const open = await get(h, a.testKey, p.id, "application/pdf");
    expect(open.status).toBe(400);
    expect(((await open.json()) as any).error.code).toBe("receipt_not_available");
    await pay(h, a, p.id);
    const other = await get(h, b.testKey, p.id, "application/pdf");
    expect(other.status).toBe(404);
    expect(((await other.json()) as any).error.code).toBe("not_found");
    expect((await get(h, a.liveKey, p.id, "application/pdf")).status).toBe(404);
  });
});

describe("GET /v1/payments/{id}/receipt: errors", () => {
  test("a transaction without a final outcome -> 400 receipt_not_available", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a);
    const r = await h.call("GET", `/v1/payments/${p.id}/receipt`, { key: a.testKey });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("receipt_not_available");
  });

  test("another account's transaction -> 404", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const p = await createPayment(h, a);
    await pay(h, a, p.id);
    expect((await h.call("GET", `/v1/payments/${p.id}/receipt`, { key: b.testKey })).status).toBe(404);
  });
});
