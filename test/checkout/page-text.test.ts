/**
 * Payer-facing text of the checkout: pt-BR words, dates and amounts, copy buttons, no emoji-font glyphs (issue 13
 * section 3).
 */
import { describe, expect, test } from "bun:test";
import { harness, newCharge, raw } from "../charges/support";
import { createPayment } from "../payments/support";
import { clip, formatDate, formatDateTime, formatMoney } from "../../src/web/checkout/format";

/** Independent oracle: São Paulo has kept UTC-3 all year since 2019. `dd/mm/aaaa HH:mm`. */
function spDateTime(iso: string): string {
  const d = new Date(Date.parse(iso) - 3 * 3600_000);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCDate())}/${p(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}
const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<svg[\s\S]*?<\/svg>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");
/** Latin letters, digits, ASCII and Latin-1 punctuation, the dashes, quotes and ellipsis of General Punctuation, and the euro sign: all in every text font. */
const TEXT_FONT_ONLY = /^[\u0009\u000a\u000d\u0020-\u007e\u00a0-\u024f\u2010-\u2027\u20ac]*$/;

describe("pt-BR formatting", () => {
  test("amounts are R$ 1.234,56 and instants dd/mm/aaaa HH:mm in São Paulo time", () => {
    expect(formatMoney(123456, "BRL")).toBe("R$\u00a01.234,56");
    expect(formatMoney(5, "BRL")).toBe("R$\u00a00,05");
    expect(formatMoney(100000000, "BRL")).toBe("R$\u00a01.000.000,00");
    for (const iso of [
      "2026-11-20T12:00:00.000Z",
      "2026-01-01T02:59:00.000Z",
      "2026-02-28T23:30:00.000Z",
      "2027-06-15T03:00:00.000Z",
    ])
      expect(formatDateTime(iso)).toBe(spDateTime(iso));
    expect(formatDateTime(Date.parse("2026-01-01T02:59:00.000Z"))).toBe("31/12/2025 23:59");
    expect(formatDateTime("not a date")).toBe("");
    expect(formatDateTime(null)).toBe("");
    expect(formatDate("2026-11-27")).toBe("27/11/2026");
  });

  test("clipping counts graphemes and never splits one", () => {
    expect(clip("abcdef", 6)).toBe("abcdef");
    expect(clip("abcdefg", 6)).toBe("abcde…");
    expect(clip("e\u0301".repeat(10), 4)).toBe(`${"e\u0301".repeat(3)}…`);
    expect(clip("\u{1F469}\u200D\u{1F4BB}".repeat(5), 3)).toBe(`${"\u{1F469}\u200D\u{1F4BB}".repeat(2)}…`);
  });
});

describe("the page of every method", () => {
  test("shows its dates in pt-BR São Paulo time, amounts in pt-BR and pt-BR words only", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const br = await createPayment(h, a, {
      amount: 123456,
      paymentMethods: ["PIX", "BOLETO", "CRYPTO", "CREDIT_CARD"],
      metadata: { description: "Pedido 7" },
    });
    const g = (await h.call("GET", `/v1/payments/${br.id}`, { key: a.testKey })).body;
    const page = (await h.call("GET", `/c/${br.id}`)).text;
    expect(page).toContain("R$\u00a01.234,56");
    expect(page).toContain('data-testid="description"><bdi>Pedido 7</bdi>');
    // The boleto is due on the São Paulo calendar day its expiry falls on (end of that day).
    expect(page).toContain(`data-testid="boleto-due">${spDateTime(g.boletoExpiresAt).slice(0, 10)}</strong>`);
    expect(page).toContain(`Válido até ${spDateTime(g.pixExpiresAt)} (horário de Brasília)`);
    for (const label of ["Pix", "Boleto", "Cripto"])
      expect(page).toContain(`>SANDBOX — simular pagamento (${label})</button>`);
    for (const en of ["Simulate", "payment", "Pay ", "Copy", "Expires", "Download"])
      expect(visibleText(page)).not.toContain(en);

    const eu = await createPayment(h, a, {
      amount: 990,
      currency: "EUR",
      paymentMethods: ["MULTIBANCO", "MBWAY"],
      metadata: { phone: "+351912345678" },
    });
    const ge = (await h.call("GET", `/v1/payments/${eu.id}`, { key: a.testKey })).body;
    const pe = (await h.call("GET", `/c/${eu.id}`)).text;
    expect(pe).toContain(`<dt>Válida até</dt><dd>${spDateTime(ge.mbExpiresAt)} (horário de Brasília)</dd>`);
    expect(pe).toContain("<dt>Valor</dt><dd>€\u00a09,90</dd>");
    expect(pe).toContain("Enviamos um pedido de pagamento para o celular <bdi>+********5678</bdi>");
    for (const ptPT of ["Enviámos", "telemóvel", "Montante"]) expect(pe).not.toContain(ptPT);
  });

  test("offers a copy button for the Pix copia e cola, the boleto's linha digitável (its 47 digits), the crypto address and the Multibanco reference", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const br = await createPayment(h, a, { paymentMethods: ["PIX", "BOLETO", "CRYPTO"] });
    const g = (await h.call("GET", `/v1/payments/${br.id}`, { key: a.testKey })).body;
    const page = (await h.call("GET", `/c/${br.id}`)).text;
    expect(g.boletoLine).toMatch(/^\d{47}$/);
    expect(page).toContain(
      `<button type="button" data-copy="boleto-line" data-copy-text="${g.boletoLine}" data-copy-done="Linha digitável copiada">Copiar linha digitável</button>`,
    );
    expect(page).toContain(
      '<button type="button" data-copy="br-code" data-copy-done="Código Pix copiado">Copiar código Pix</button>',
    );
    expect(page).toContain(
      '<button type="button" data-copy="crypto-address" data-copy-done="Endereço copiado">Copiar endereço</button>',
    );
    expect(page).toContain(`data-testid="crypto-address">${g.cryptoAddress}</textarea>`);
    const eu = await createPayment(h, a, { currency: "EUR", paymentMethods: ["MULTIBANCO"] });
    const ge = (await h.call("GET", `/v1/payments/${eu.id}`, { key: a.testKey })).body;
    expect((await h.call("GET", `/c/${eu.id}`)).text).toContain(
      `data-copy-text="${ge.mbReference}" data-copy-done="Referência copiada">Copiar referência</button>`,
    );
  });

  test("no screen needs an emoji font: every visible character is in every text font", async () => {
    const h = harness();
    const a = await h.seedAccount();
    const pages: string[] = [];
    const open = async (id: string) => pages.push((await h.call("GET", `/c/${id}`)).text);
    const all = await createPayment(h, a, { paymentMethods: ["PIX", "BOLETO", "CRYPTO", "CREDIT_CARD"] });
    await open(all.id);
    const eu = await createPayment(h, a, {
      currency: "EUR",
      paymentMethods: ["MULTIBANCO", "MBWAY"],
      metadata: { phone: "+351912345678" },
    });
    await open(eu.id);
    const paid = await newCharge(h, a);
    await h.call("POST", `/c/${raw(paid.id)}/simulate`, { body: {} });
    await open(raw(paid.id));
    const declined = await newCharge(h, a);
    await h.call("POST", `/v1/test_helpers/charges/${declined.id}/pay`, {
      key: a.testKey,
      body: { outcome: "decline" },
    });
    await open(raw(declined.id));
    const expired = await newCharge(h, a, { expires_in: 60 });
    h.clock.advance(61);
    await h.deps.jobs.drain();
    await open(raw(expired.id));
    pages.push((await h.call("GET", "/c/0123456789abcdef0123456789abcdef")).text);
    const states = pages.map((p) => /data-state="([a-z_]+)"/.exec(p)![1]);
    expect(states).toEqual(["pending", "pending", "paid", "failed", "expired", "not_found"]);
    for (const p of pages) {
      const text = visibleText(p);
      const odd = [...text].filter((ch) => !TEXT_FONT_ONLY.test(ch));
      expect(odd).toEqual([]);
    }
    expect(pages[2]).toContain('<svg class="icon"');
  });
});
