import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { cnpj as oracleCnpj, cpf as oracleCpf } from "cpf-cnpj-validator";
import { DEVOLUTION_RE, E2E_RE, newDevolutionId, newEndToEndId, newTxid, TXID_RE } from "../../src/pix/ids";
import { isValidAlphanumericCnpj, normalizeTaxId, parseTaxId } from "../../src/pix/tax-id";

describe("Pix identifiers", () => {
  test("a txid is 26-35 alphanumerics and fresh each time", () => {
    const ids = new Set(Array.from({ length: 200 }, () => newTxid()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(TXID_RE);
  });

  test("txids sort by creation time (8 base-62 digits of the millisecond) and end in 24 random characters", () => {
    const t0 = Date.parse("2026-11-20T12:00:00.000Z");
    const times = [0, 1, 61, 62, 1000, 3_600_000, 86_400_000 * 400].map((d) => t0 + d);
    const ids = times.map((t) => newTxid(t));
    for (const id of ids) expect(id).toHaveLength(32);
    expect([...ids].sort()).toEqual(ids);
    // The prefix is the time alone: the same millisecond gives the same 8 characters, then randomness.
    const a = newTxid(t0);
    const b = newTxid(t0);
    expect(a.slice(0, 8)).toBe(b.slice(0, 8));
    expect(a.slice(8)).not.toBe(b.slice(8));
    expect(new Set(Array.from({ length: 200 }, () => newTxid(t0).slice(8))).size).toBe(200);
  });

  test("an end-to-end id is E + ISPB + yyyyMMddHHmm (UTC) + 11 alphanumerics = 32 characters", () => {
    const id = newEndToEndId(new Date("2026-11-20T09:05:59.000Z"), "12345678");
    expect(id).toHaveLength(32);
    expect(id).toMatch(E2E_RE);
    expect(id.slice(0, 21)).toBe("E12345678202611200905");
    expect(() => newEndToEndId(new Date(), "123")).toThrow(RangeError);
  });

  test("a devolution id has the same shape with a D", () => {
    const id = newDevolutionId(new Date("2026-01-02T03:04:00Z"));
    expect(id).toHaveLength(32);
    expect(id).toMatch(DEVOLUTION_RE);
  });
});

/** Reference implementation straight from RFB Nota Técnica 49/2024, written independently for the property test. */
function referenceDv(base: string): string {
  const vals = [...base].map((c) => c.charCodeAt(0) - 48);
  const dv = (v: number[]) => {
    const w = v.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const r = v.reduce((s, x, i) => s + x * w[i]!, 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = dv(vals);
  const d2 = dv([...vals, d1]);
  return `${d1}${d2}`;
}

describe("tax ids", () => {
  test("CPF and numeric CNPJ with or without masks are accepted and normalized", () => {
    expect(parseTaxId("529.982.247-25")).toEqual({ kind: "cpf", value: "52998224725" });
    expect(parseTaxId("11.222.333/0001-81")).toEqual({ kind: "cnpj", value: "11222333000181" });
  });

  test("wrong check digits, repeated digits and wrong lengths are refused", () => {
    for (const bad of [
      "52998224724",
      "11111111111",
      "11222333000182",
      "00000000000000",
      "1234",
      "529982247250",
      "AAAAAAAAAAAAAA",
    ])
      expect(parseTaxId(bad)).toBeNull();
  });

  test("the alphanumeric CNPJ of the RFB example 12.ABC.345/01DE-35 is valid, lower case included", () => {
    expect(parseTaxId("12.ABC.345/01DE-35")).toEqual({ kind: "cnpj", value: "12ABC34501DE35" });
    expect(parseTaxId("12abc34501de35")).toEqual({ kind: "cnpj", value: "12ABC34501DE35" });
    expect(parseTaxId("12ABC34501DE36")).toBeNull();
    expect(isValidAlphanumericCnpj("12ABC34501DEA5")).toBe(false);
    expect(normalizeTaxId(" 12.abc.345/01de-35 ")).toBe("12ABC34501DE35");
  });

  test("the alphanumeric check agrees with the RFB reference and with cpf-cnpj-validator on random bases", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9A-Z]{12}$/), fc.integer({ min: 0, max: 99 }), (base, wrong) => {
        const good = base + referenceDv(base);
        if (/^(.)\1+$/.test(good)) return;
        expect(isValidAlphanumericCnpj(good)).toBe(true);
        expect(oracleCnpj.isValid(good)).toBe(true);
        const other = base + String(wrong).padStart(2, "0");
        expect(isValidAlphanumericCnpj(other)).toBe(other === good);
      }),
      { numRuns: 300 },
    );
  });

  test("generated CPFs and CNPJs from the library validate", () => {
    for (let i = 0; i < 50; i++) {
      expect(parseTaxId(oracleCpf.generate())?.kind).toBe("cpf");
      expect(parseTaxId(oracleCnpj.generate())?.kind).toBe("cnpj");
    }
  });
});
