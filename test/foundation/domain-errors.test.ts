/**
 * Domain failures are domain types (src/domain/errors.ts); the HTTP layer maps them to the one
 * error table (src/http/errors.ts) without changing code, message, param, details or headers.
 */
import { describe, expect, test } from "bun:test";
import { DomainError, invalidParam, notFound } from "../../src/domain/errors";
import { ApiError, ERROR_CODES, envelope, statusOf } from "../../src/http/errors";

describe("mapping a DomainError to the error table", () => {
  test("keeps the code, message and extra and takes status and type from the table, for every code", () => {
    for (const code of Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]) {
      const extra = { param: "p", details: [{ param: "p", message: "m" }], headers: { "Retry-After": "1" } };
      const api = ApiError.from(new DomainError(code, "msg", extra));
      expect([api.code, api.message, api.extra, api.status, api.type]).toEqual([
        code,
        "msg",
        extra,
        ERROR_CODES[code][0],
        ERROR_CODES[code][1],
      ]);
      expect(statusOf(new DomainError(code, "msg"))).toBe(ERROR_CODES[code][0]);
    }
  });

  test("renders the same envelope as the HTTP shorthands did", () => {
    expect(envelope(ApiError.from(invalidParam("amount", "too big", "invalid_amount")), "req_1")).toEqual({
      error: {
        type: "invalid_request_error",
        code: "invalid_amount",
        message: "too big",
        param: "amount",
        details: [{ param: "amount", message: "too big" }],
      },
      request_id: "req_1",
    });
    expect(envelope(ApiError.from(notFound("refund")), "req_2")).toEqual({
      error: { type: "not_found_error", code: "not_found", message: "No such refund." },
      request_id: "req_2",
    });
  });

  test("returns an ApiError as it is", () => {
    const api = new ApiError("conflict", "x");
    expect(ApiError.from(api)).toBe(api);
  });
});
