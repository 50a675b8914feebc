import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { updateAccountSettings } from "../../src/domain/accounts/settings";
import { createHarness, type Harness } from "../support/harness";
import { pdfImages, pdfInfo, pdfText } from "../support/pdf";
import { readItf } from "../support/itf";
import { createPayment, forceLive } from "./support";

// The first PDF of a process loads fontkit and warms up its layout code: seconds on a loaded box.
setDefaultTimeout(30_000);

/** GET of the boleto PDF at its public `boletoPdfUrl`. */
async function fetchBoleto(h: Harness, apiKey: string, id: string) {
  const g = await h.call("GET", `/v1/payments/${id}`, { key: apiKey });
  expect(g.status).toBe(200);
  const res = await h.app.handle(new Request(g.body.boletoPdfUrl.replace("http://localhost:3000", "http://localhost")));
  return { g: g.body, res, bytes: new Uint8Array(await res.clone().arrayBuffer()) };
}

/** FEBRABAN's printed form of a 47-digit line: `AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEEEEEEEEEEE`. */
function printed(l: string): string {
  const m = /^(\d{5})(\d{5})(\d{5})(\d{6})(\d{5})(\d{6})(\d)(\d{14})$/.exec(l)!;
  return `${m[1]}.${m[2]} ${m[3]}.${m[4]} ${m[5]}.${m[6]} ${m[7]} ${m[8]}`;
}

describe("boleto PDF (boletoPdfUrl): FEBRABAN ficha de compensação in pt-BR", () => {
  test("carries the bank code, the linha digitável, beneficiário with CNPJ, nosso número, vencimento, valor, pagador and the slip's fields", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ name: "Padaria Pão Quente" });
    await updateAccountSettings(h.deps.store, a.accountId, {
      legal_name: "Padaria Pão Quente Ltda.",
      tax_id: "11222333000181",
    });
    const p = await createPayment(h, a, {
      amount: 123456,
      paymentMethods: ["BOLETO"],
      customerName: "Joana Araújo",
      customerDocument: "52998224725",
      metadata: { description: "Encomenda de Natal" },
    });
    const { g, res, bytes } = await fetchBoleto(h, a.testKey, p.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const text = await pdfText(bytes);
    const lines = text.split("\n");
    const barcode = g.boletoBarcode as string;
    const ourNumber = barcode.slice(25, 42);
    // The ficha's header: bank, bank code with its digit, the line in its printed form.
    expect(lines).toContain(`Banco do Brasil 001-9 ${printed(g.boletoLine)}`);
    expect(lines).toContain("Banco do Brasil 001-9 Recibo do Pagador");
    for (const s of [
      "Ficha de Compensação",
      "Local de pagamento",
      "Pagável em qualquer banco até o vencimento",
      "Beneficiário",
      "Padaria Pão Quente Ltda. — CNPJ 11.222.333/0001-81",
      "Agência/Código do beneficiário",
      `0001 / ${ourNumber.slice(0, 7)}`,
      "Nosso número",
      ourNumber,
      "Vencimento",
      "23/11/2026",
      "Valor do documento",
      "R$ 1.234,56",
      "Pagador",
      "Joana Araújo — CPF/CNPJ ***.982.247-**",
      "Data do documento",
      "Data do processamento",
      "20/11/2026",
      "Nº do documento",
      p.id,
      "Espécie doc.",
      "Aceite",
      "Carteira",
      "Espécie",
      "Instruções",
      "Não receber após o vencimento.",
      "Referente a: Encomenda de Natal",
      "Autenticação mecânica",
      "SANDBOX",
    ])
      expect(text).toContain(s);
    expect(text).not.toContain("529.982.247-25");
    // Wallet (carteira), species R$, species of document DM and acceptance N on the slip's rows.
    expect(lines.some((l) => l.includes(`${barcode.slice(42, 44)} R$`))).toBe(true);
    expect(lines.some((l) => l.includes(`20/11/2026 ${p.id} DM N 20/11/2026 ${ourNumber}`))).toBe(true);
  });

  test("the barcode at the foot is the Interleaved 2 of 5 of the 44 digits (read back from the image)", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { amount: 4990, paymentMethods: ["BOLETO"] });
    const { g, bytes } = await fetchBoleto(h, a.testKey, p.id);
    const images = await pdfImages(bytes);
    expect(images.length).toBe(1);
    const [img] = images;
    expect(readItf(img!.rgba, img!.width, img!.height)).toBe(g.boletoBarcode);
  });

  test("a live boleto has no SANDBOX marking; without a legal name the beneficiary is the account's name", async () => {
    const h = createHarness();
    const a = await h.seedAccount({ name: "Loja Ação" });
    const p = await createPayment(h, a, { amount: 4990, paymentMethods: ["BOLETO"] });
    expect(await pdfText((await fetchBoleto(h, a.testKey, p.id)).bytes)).toContain("SANDBOX");
    await forceLive(h, p.id);
    const text = await pdfText((await fetchBoleto(h, a.liveKey, p.id)).bytes);
    expect(text).not.toContain("SANDBOX");
    expect(text).toContain("Loja Ação");
    expect(text).toContain("R$ 49,90");
    expect(text).toContain("Não informado");
    expect(text).not.toContain("CNPJ 1");
  });

  test("a 200-character legal name is cut to fit with the CNPJ kept whole; a long description wraps; one page", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const legal = `Comércio de Artigos ${"Variados ".repeat(30)}`.slice(0, 200).trim();
    await updateAccountSettings(h.deps.store, a.accountId, { legal_name: legal, tax_id: "11222333000181" });
    const p = await createPayment(h, a, {
      amount: 4990,
      paymentMethods: ["BOLETO"],
      metadata: { description: `Pedido ${"número ".repeat(40)}fim` },
    });
    const { bytes } = await fetchBoleto(h, a.testKey, p.id);
    const lines = (await pdfText(bytes)).split("\n");
    expect(
      lines.some((l) => /^Comércio de Artigos Variados .*… — CNPJ 11\.222\.333\/0001-81 0001 \/ \d{7}$/.test(l)),
    ).toBe(true);
    expect(lines.filter((l) => l.includes("número")).length).toBeGreaterThan(1);
    expect(lines).toContain("SANDBOX: boleto gerado em modo de teste; não pague este documento.");
    expect((await pdfInfo(bytes)).pages).toBe(1);
  });

  test("an unknown or non-boleto id gives 404 for the PDF", async () => {
    const h = createHarness();
    const a = await h.seedAccount();
    const p = await createPayment(h, a, { paymentMethods: ["PIX"] });
    expect((await h.call("GET", `/v1/boletos/${p.id}.pdf`)).status).toBe(404);
    expect((await h.call("GET", `/v1/boletos/${"0".repeat(32)}.pdf`)).status).toBe(404);
    expect((await h.call("GET", `/v1/boletos/nope`)).status).toBe(404);
  });
});
