import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { acceptsExplicitly } from "../../src/http/accept";
import { bankCheckDigit } from "../../src/formats/boleto";
import {
  calendarDateBR,
  dateBR,
  dateTimeBR,
  formatTaxId,
  maskTaxId,
  money,
  taxIdLabel,
} from "../../src/domain/payments/pdf/format";

describe("pt-BR formats of receipts and boletos", () => {
  test("amounts are R$ with . for thousands and , for centavos", () => {
    expect(money(0)).toBe("R$ 0,00");
    expect(money(5)).toBe("R$ 0,05");
    expect(money(99)).toBe("R$ 0,99");
    expect(money(100)).toBe("R$ 1,00");
    expect(money(123456)).toBe("R$ 1.234,56");
    expect(money(100_000_000)).toBe("R$ 1.000.000,00");
    expect(money(1_000_000_000_000)).toBe("R$ 10.000.000.000,00");
    expect(money(-150)).toBe("-R$ 1,50");
  });

  test("amounts and São Paulo times agree with the runtime's ICU pt-BR formats (property)", () => {
    const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
    const when = new Intl.DateTimeFormat("pt-BR", {
      timeZone: "America/Sao_Paulo",
      dateStyle: "short",
      timeStyle: "medium",
    });
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        (minor, ms) => {
          expect(money(minor)).toBe(brl.format(minor / 100).replace(/\u00a0/g, " "));
          expect(dateTimeBR(ms)).toBe(when.format(new Date(ms)).replace(", ", " "));
        },
      ),
      { numRuns: 500 },
    );
  });

  test("other currencies keep the pt-BR digits with their symbol or ISO code", () => {
    expect(money(123456, "EUR")).toBe("€ 1.234,56");
    expect(money(123456, "usd")).toBe("US$ 1.234,56");
    expect(money(123456, "ARS")).toBe("ARS 1.234,56");
  });

  test("dates are dd/mm/aaaa and times are São Paulo's, across the UTC day boundary", () => {
    expect(dateTimeBR(Date.parse("2026-11-20T12:01:30Z"))).toBe("20/11/2026 09:01:30");
    expect(dateTimeBR(Date.parse("2026-11-20T02:59:59Z"))).toBe("19/11/2026 23:59:59");
    expect(dateBR(Date.parse("2026-11-20T02:59:59Z"))).toBe("19/11/2026");
    expect(dateBR(Date.parse("2027-01-01T03:00:00Z"))).toBe("01/01/2027");
    expect(calendarDateBR("2026-11-23")).toBe("23/11/2026");
  });

  test("times follow the time-zone database: São Paulo was UTC-2 under the 2018-19 daylight saving time", () => {
    expect(dateTimeBR(Date.parse("2018-12-01T12:00:00Z"))).toBe("01/12/2018 10:00:00");
    expect(dateTimeBR(Date.parse("2018-07-01T12:00:00Z"))).toBe("01/07/2018 09:00:00");
  });

  test("CNPJ and CPF are printed with their punctuation, the alphanumeric CNPJ too", () => {
    expect(formatTaxId("11222333000181")).toBe("11.222.333/0001-81");
    expect(formatTaxId("12ABC34501DE35")).toBe("12.ABC.345/01DE-35");
    expect(formatTaxId("52998224725")).toBe("529.982.247-25");
    expect([
      taxIdLabel("11222333000181"),
      taxIdLabel("12ABC34501DE35"),
      taxIdLabel("52998224725"),
      taxIdLabel("123"),
    ]).toEqual(["CNPJ", "CNPJ", "CPF", "Documento"]);
  });

  test("a payer's CPF shows only its six middle digits, masked or not on input; a CNPJ is shown whole", () => {
    expect(maskTaxId("52998224725")).toBe("***.982.247-**");
    expect(maskTaxId("529.982.247-25")).toBe("***.982.247-**");
    expect(maskTaxId("11.222.333/0001-81")).toBe("11.222.333/0001-81");
    expect(maskTaxId("123456789")).toBe("*******89");
  });
});

describe("boleto bank code digit", () => {
  test("matches the digits printed by the banks (mod 11, weights 2-4, 10 and 11 print 0)", () => {
    const known: Record<string, number> = { "001": 9, "033": 7, "104": 0, "237": 2, "341": 7, "745": 5, "756": 0 };
    for (const [bank, digit] of Object.entries(known))
      expect(`${bank}-${bankCheckDigit(bank)}`).toBe(`${bank}-${digit}`);
    expect(() => bankCheckDigit("01")).toThrow(RangeError);
  });
});

describe("Accept negotiation of the receipt", () => {
  test("only an explicit application/pdf not outranked by application/json selects the file", () => {
    const cases: [string | null, boolean][] = [
      [null, false],
      ["", false],
      ["*/*", false],
      ["application/json", false],
      ["application/pdf", true],
      ["Application/PDF", true],
      ["application/pdf, */*;q=0.1", true],
      ["application/json;q=0.5, application/pdf", true],
      ["application/pdf;q=0.5, application/json", false],
      ["application/pdf;q=0", false],
      ["application/pdf;q=abc", false],
      ["text/html, application/pdf;q=0.9", true],
    ];
    for (const [accept, want] of cases)
      expect([accept, acceptsExplicitly(accept, "application/pdf")]).toEqual([accept, want]);
  });
});
