/**
 * The dashboard's pure helpers: money and dates as a Brazilian merchant reads them, refund and payout amounts typed,
 * payout statuses and destinations, the MED countdown.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dateTime, money } from "../../src/web/dashboard/app/format";
import { parseAmount } from "../../src/web/dashboard/app/payment";
import { countdown } from "../../src/web/dashboard/app/med";
import { destinationText, payoutStatusText } from "../../src/web/dashboard/app/payout-text";
import { PAYOUT_STATUSES } from "../../src/domain/payouts/model";

describe("dashboard formatting", () => {
  test("amounts in centavos read as R$ 1.234,56 with a plain space", () => {
    expect(money(123456)).toBe("R$ 1.234,56");
    expect(money(5)).toBe("R$ 0,05");
    expect(money(100000000)).toBe("R$ 1.000.000,00");
    expect(money(-25000)).toBe("-R$ 250,00");
  });

  test("dates are shown in America/Sao_Paulo time (UTC-3)", () => {
    expect(dateTime("2026-11-20T12:00:00.000Z")).toBe("20/11/2026, 09:00");
    expect(dateTime("2026-11-21T02:30:00.000Z")).toBe("20/11/2026, 23:30");
    expect(dateTime(null)).toBe("—");
  });

  test("a typed refund amount in reais becomes centavos; anything else is refused", () => {
    expect(parseAmount("4,00")).toBe(400);
    expect(parseAmount("1.234,56")).toBe(123456);
    expect(parseAmount("R$ 10,5")).toBe(1050);
    expect(parseAmount("12.34")).toBe(1234);
    expect(parseAmount("7")).toBe(700);
    for (const bad of ["", "0", "0,00", "-1", "1,234", "abc", "1e3", "1,2,3"]) expect(parseAmount(bad)).toBeNull();
  });

  test("a typed payout amount becomes centavos exactly, up to the largest safe integer and no further", () => {
    expect(parseAmount("0,29")).toBe(29);
    expect(parseAmount("1.234,56")).toBe(123456);
    expect(parseAmount("R$ 0,01")).toBe(1);
    expect(parseAmount("90.071.992.547.409,91")).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseAmount("90071992547409,92")).toBeNull();
    expect(parseAmount("1.234.567,8")).toBe(123456780);
    for (const bad of ["1.23.456", "12,345", ",5", "1.234.56", "R$"]) expect(parseAmount(bad)).toBeNull();
  });

  test("payout statuses read in pt-BR: pendente, em processamento, pago, falhou, cancelado", () => {
    expect(["pending", "processing", "paid", "failed", "cancelled"].map(payoutStatusText)).toEqual([
      "pendente",
      "em processamento",
      "pago",
      "falhou",
      "cancelado",
    ]);
    expect(payoutStatusText("weird")).toBe("weird");
    expect(PAYOUT_STATUSES.map(payoutStatusText)).toEqual([
      "pendente",
      "em processamento",
      "pago",
      "falhou",
      "cancelado",
    ]);
  });

  test("the payout model and the Pix key types the dashboard bundles import types only, so no server module reaches the browser", () => {
    for (const file of ["../../src/domain/payouts/model.ts", "../../src/pix/key-types.ts"]) {
      const source = readFileSync(join(import.meta.dir, file), "utf8");
      const imports = [
        ...source.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+["'][^"']+["']|^import\s+["'][^"']+["']/gm),
      ].map((m) => m[0]);
      expect(imports.filter((l) => !l.startsWith("import type "))).toEqual([]);
    }
  });

  test("a destination reads in one line: the Pix key with its type and holder, or the bank account", () => {
    expect(destinationText({ type: "pix_key", pix_key_type: "cpf", pix_key: "52998224725", name: "Maria Silva" })).toBe(
      "Chave Pix CPF: 52998224725 · Maria Silva",
    );
    expect(
      destinationText({
        type: "pix_key",
        pix_key_type: "evp",
        pix_key: "123e4567-e89b-12d3-a456-426614174000",
        name: null,
      }),
    ).toBe("Chave Pix Chave aleatória: 123e4567-e89b-12d3-a456-426614174000");
    expect(
      destinationText({
        type: "bank_account",
        name: "Maria Silva",
        ispb: "00000000",
        branch: "1",
        account: "123456",
        account_type: "savings",
      }),
    ).toBe("Maria Silva · ISPB 00000000 · Agência 1 · 123456 (Poupança)");
  });

  test("the MED countdown shows days and h:mm:ss until the deadline, and nothing once it passed", () => {
    const now = Date.parse("2026-11-20T12:00:00.000Z");
    expect(countdown("2026-11-22T15:04:05.000Z", now)).toBe("2 d 03:04:05");
    expect(countdown("2026-11-20T12:00:09.000Z", now)).toBe("00:00:09");
    expect(countdown("2026-11-20T12:00:00.000Z", now)).toBeNull();
    expect(countdown(null, now)).toBeNull();
  });
});
