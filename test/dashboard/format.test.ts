/** The dashboard's pure helpers: money and dates as a Brazilian merchant reads them, refund amounts typed, the MED countdown. */
import { describe, expect, test } from "bun:test";
import { dateTime, money } from "../../src/web/dashboard/app/format";
import { parseAmount } from "../../src/web/dashboard/app/payment";
import { countdown } from "../../src/web/dashboard/app/med";

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

  test("the MED countdown shows days and h:mm:ss until the deadline, and nothing once it passed", () => {
    const now = Date.parse("2026-11-20T12:00:00.000Z");
    expect(countdown("2026-11-22T15:04:05.000Z", now)).toBe("2 d 03:04:05");
    expect(countdown("2026-11-20T12:00:09.000Z", now)).toBe("00:00:09");
    expect(countdown("2026-11-20T12:00:00.000Z", now)).toBeNull();
    expect(countdown(null, now)).toBeNull();
  });
});
