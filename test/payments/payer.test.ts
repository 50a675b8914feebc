/**
 * The payer as the PSP reports them (issue 29): stored with the payment at settlement (name and a
 * masked document, never the whole CPF), printed on the receipt, read by the dashboard through
 * GET /v1/payments/{id}/payer; the payer lock's rules stay.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { updateAccountSettings } from "../../src/domain/accounts/settings";
import { createHarness } from "../support/harness";
import { testDb } from "../support/test-db";
import { pdfText } from "../support/pdf";
import { createPayment, pay } from "./support";

setDefaultTimeout(30_000);

describe("the payer reported at settlement", () => {
  test("a payment paid by 'Maria Souza' keeps her name and masked CPF: the payer route and the receipt show them, the database never holds her CPF", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { amount: 1990, metadata: { description: "Camiseta azul" } });
    const before = await h.call("GET", `/v1/payments/${p.id}/payer`, { key: a.testKey });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ name: null, document: null });
    await pay(h, a, p.id, { payer_name: "Maria Souza", payer_tax_id: "529.982.247-25" });
    const r = await h.call("GET", `/v1/payments/${p.id}/payer`, { key: a.testKey });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ name: "Maria Souza", document: "***.982.247-**" });
    const receipt = await h.call("GET", `/v1/payments/${p.id}/receipt`, { key: a.testKey });
    const lines = (await pdfText(Buffer.from(receipt.body.base64, "base64"))).split("\n");
    expect(lines).toContain("Nome: Maria Souza");
    expect(lines).toContain("CPF/CNPJ: ***.982.247-**");
    const row = await testDb(h.deps).get<{ method_details: string }>(
      "select method_details from transactions where id = ?",
      p.id,
    );
    expect(row!.method_details).not.toContain("52998224725");
    expect(row!.method_details).not.toContain("529.982.247-25");
  });

  test("a bank that did not disclose the document: the name alone is kept", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { amount: 500 });
    await pay(h, a, p.id, { payer_name: "Maria Souza", payer_tax_id: "529.982.247-25", disclose_payer: false });
    expect((await h.call("GET", `/v1/payments/${p.id}/payer`, { key: a.testKey })).body).toEqual({
      name: "Maria Souza",
      document: null,
    });
  });

  test("under the payer lock a different payer's money goes back and nothing of them is kept", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    await updateAccountSettings(h.deps.store, a.accountId, { payer_lock_enabled: true });
    const c = await h.call("POST", "/v1/pix/charges", {
      key: a.testKey,
      headers: { "Idempotency-Key": `lock-${Math.random()}` },
      body: { amount: 1000, customer: { name: "João da Silva" }, expected_payer_tax_id: "52998224725" },
    });
    expect(c.status).toBe(201);
    const id = c.body.id.replace(/^ch_/, "");
    const paid = await h.call("POST", `/v1/test_helpers/charges/${c.body.id}/pay`, {
      key: a.testKey,
      body: { payer_tax_id: "11222333000181", payer_name: "Outra Empresa Ltda." },
    });
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe("refunded");
    expect((await h.call("GET", `/v1/payments/${id}/payer`, { key: a.testKey })).body).toEqual({
      name: null,
      document: null,
    });
  });

  test("another account's payment is 404", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const b = await h.seedAccount();
    const p = await createPayment(h, a, { amount: 500 });
    const r = await h.call("GET", `/v1/payments/${p.id}/payer`, { key: b.testKey });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("not_found");
  });
});
