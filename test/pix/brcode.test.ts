import { describe, expect, test } from "bun:test";
import { parsePix, hasError } from "pix-utils";
import { getPixPayloadInfo, isValidPixPayload } from "@brazilian-utils/brazilian-utils";
import fc from "fast-check";
import { buildDynamicBrCode, foldAscii, formatAmount, hasValidCrc, parseTlv, tlv } from "../../src/pix/brcode";
import { crc16CcittFalse } from "../../src/pix/crc16";

const BCB_EXAMPLE =
  "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4";

describe("CRC-16/CCITT-FALSE", () => {
  test("matches the catalogue check value for 123456789", () => {
    expect(crc16CcittFalse("123456789")).toBe("29B1");
  });
  test("of the empty string is the init value FFFF", () => {
    expect(crc16CcittFalse("")).toBe("FFFF");
  });
  test("validates the BCB manual example and rejects a tampered copy", () => {
    expect(hasValidCrc(BCB_EXAMPLE)).toBe(true);
    expect(hasValidCrc(BCB_EXAMPLE.replace("Fulano", "Fulana"))).toBe(false);
  });
});

describe("dynamic BR Code writer", () => {
  test("reproduces the BCB manual example byte for byte", () => {
    const code = buildDynamicBrCode({
      location: "pix.example.com/8b3da2f39a4140d1a91abd93113bd441",
      merchantName: "Fulano de Tal",
      merchantCity: "BRASILIA",
    });
    expect(code).toBe(BCB_EXAMPLE);
  });

  test("writes the fields of a dynamic cob in order with amount and *** txid", () => {
    const code = buildDynamicBrCode({
      location: "pay.cofre.test/v1/pix/loc/ABCDEFGHIJKLMNOPQRSTUVWXYZ123456",
      merchantName: "Padaria São João Ltda",
      merchantCity: "São Paulo",
      amount: 1234,
    });
    const f = parseTlv(code);
    expect([...f.keys()]).toEqual(["00", "01", "26", "52", "53", "54", "58", "59", "60", "62", "63"]);
    expect(f.get("01")).toBe("12");
    const mai = parseTlv(f.get("26")!);
    expect(mai.get("00")).toBe("br.gov.bcb.pix");
    expect(mai.get("25")).toBe("pay.cofre.test/v1/pix/loc/ABCDEFGHIJKLMNOPQRSTUVWXYZ123456");
    expect(f.get("52")).toBe("0000");
    expect(f.get("53")).toBe("986");
    expect(f.get("54")).toBe("12.34");
    expect(f.get("58")).toBe("BR");
    expect(f.get("59")).toBe("Padaria Sao Joao Ltda");
    expect(f.get("60")).toBe("Sao Paulo");
    expect(parseTlv(f.get("62")!).get("05")).toBe("***");
    expect(hasValidCrc(code)).toBe(true);
  });

  test("folds names to ASCII and cuts them to 25 and cities to 15 characters", () => {
    const code = buildDynamicBrCode({
      location: "a.b/c",
      merchantName: "Ação Comércio de Alimentos Orgânicos",
      merchantCity: "Florianópolis do Norte",
    });
    const f = parseTlv(code);
    expect(f.get("59")).toBe("Acao Comercio de Alimento");
    expect(f.get("59")!.length).toBe(25);
    expect(f.get("60")).toBe("Florianopolis d");
    expect(foldAscii("  Zé   ☃ Ñandú  ", 25)).toBe("Ze Nandu");
  });

  test("refuses a location with a scheme or longer than 77 characters", () => {
    expect(() =>
      buildDynamicBrCode({ location: "https://pix.example.com/x", merchantName: "A", merchantCity: "B" }),
    ).toThrow(RangeError);
    expect(() =>
      buildDynamicBrCode({ location: `p.example.com/${"x".repeat(64)}`, merchantName: "A", merchantCity: "B" }),
    ).toThrow(RangeError);
    expect(() =>
      buildDynamicBrCode({ location: `p.example.com/${"x".repeat(63)}`, merchantName: "A", merchantCity: "B" }),
    ).not.toThrow();
  });

  test("formats centavos with two decimals and refuses amounts beyond field 54", () => {
    expect(formatAmount(1)).toBe("0.01");
    expect(formatAmount(100)).toBe("1.00");
    expect(formatAmount(123456)).toBe("1234.56");
    expect(() => formatAmount(0)).toThrow(RangeError);
    expect(() =>
      buildDynamicBrCode({ location: "a.b/c", merchantName: "A", merchantCity: "B", amount: 1_000_000_000_000 }),
    ).toThrow(RangeError);
    expect(() => tlv("05", "x".repeat(100))).toThrow(RangeError);
  });

  test("every produced code parses with pix-utils and @brazilian-utils with the same CRC, GUI, URL and txid field", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9]{26,35}$/),
        fc.integer({ min: 1, max: 999_999_999_999 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.constantFrom("São Paulo", "Rio de Janeiro", "Belo Horizonte", "Brasília"),
        (txid, amount, name, city) => {
          const location = `pay.cofre.test/v1/pix/loc/${txid}`;
          const code = buildDynamicBrCode({ location, merchantName: name, merchantCity: city, amount });
          const a = parsePix(code);
          expect(hasError(a)).toBe(false);
          expect((a as any).type).toBe("DYNAMIC");
          expect((a as any).url).toBe(location);
          const b = getPixPayloadInfo(code) as any;
          expect(b).not.toBeNull();
          expect(isValidPixPayload(code)).toBe(true);
          expect(JSON.stringify(b)).toContain(location);
          const f = parseTlv(code);
          expect(parseTlv(f.get("26")!).get("00")).toBe("br.gov.bcb.pix");
          expect(parseTlv(f.get("62")!).get("05")).toBe("***");
          expect(code.slice(-4)).toBe(crc16CcittFalse(code.slice(0, -4)));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("CRC over non-ASCII input", () => {
  test("is computed over the UTF-8 bytes", () => {
    const bytes = new TextEncoder().encode("São Paulo");
    let crc = 0xffff;
    for (const b of bytes) {
      crc ^= b << 8;
      for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
    expect(crc16CcittFalse("São Paulo")).toBe(crc.toString(16).toUpperCase().padStart(4, "0"));
    expect(crc16CcittFalse("São Paulo")).not.toBe(crc16CcittFalse("Sao Paulo"));
  });
});
