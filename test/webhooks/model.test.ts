import { describe, expect, test } from "bun:test";
import {
  backoffMs,
  MAX_ATTEMPTS,
  nextDelayMs,
  parseRetryAfter,
  RETRY_SCHEDULE_SECONDS,
} from "../../src/domain/webhooks/model";
import { cofreSignature, deliveryHeaders } from "../../src/domain/webhooks/signing";

describe("retry schedule", () => {
  test("fourteen delays separate fifteen attempts over about three days", () => {
    expect(MAX_ATTEMPTS).toBe(15);
    expect(RETRY_SCHEDULE_SECONDS).toHaveLength(MAX_ATTEMPTS - 1);
    const total = RETRY_SCHEDULE_SECONDS.reduce((s, x) => s + x, 0);
    expect(total).toBe(265_655);
    expect(total / 86_400).toBeGreaterThan(2.9);
    expect(total / 86_400).toBeLessThan(3.2);
    for (let i = 1; i < RETRY_SCHEDULE_SECONDS.length; i++)
      expect(RETRY_SCHEDULE_SECONDS[i]!).toBeGreaterThan(RETRY_SCHEDULE_SECONDS[i - 1]!);
  });

  test("jitter stays within +-20% and comes only from the injected source", () => {
    expect(backoffMs(1, () => 0.5)).toBe(5000);
    expect(backoffMs(1, () => 0)).toBe(4000);
    expect(backoffMs(1, () => 0.999999)).toBe(6000);
    expect(backoffMs(14, () => 0.5)).toBe(86_400_000);
    expect(backoffMs(99, () => 0.5)).toBe(86_400_000);
  });

  test("Retry-After is read as seconds or a date and bounded to 1 s - 24 h", () => {
    const now = Date.parse("2026-11-20T12:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("0", now)).toBe(1);
    expect(parseRetryAfter("9999999", now)).toBe(86_400);
    expect(parseRetryAfter("Fri, 20 Nov 2026 12:05:00 GMT", now)).toBe(300);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  test("Retry-After applies to 429 and 503 only; other failures follow the schedule", () => {
    const r = () => 0.5;
    expect(
      nextDelayMs({ kind: "http_error", statusCode: 429, body: "", retryAfterSeconds: 30, durationMs: 1 }, 3, r),
    ).toBe(30_000);
    expect(
      nextDelayMs({ kind: "http_error", statusCode: 500, body: "", retryAfterSeconds: 30, durationMs: 1 }, 3, r),
    ).toBe(120_000);
    expect(nextDelayMs({ kind: "timeout", error: "t", durationMs: 1 }, 1, r)).toBe(5000);
  });
});

describe("signatures", () => {
  const base = {
    deliveryId: "wd_1",
    eventType: "charge.paid",
    body: '{"a":1}',
    secret: "ab".repeat(32),
    timestamp: 1_700_000_000,
  };
  test("canonical and MED use t=,v1=; legacy uses sha256=", () => {
    expect(cofreSignature({ ...base, family: "canonical" })).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(cofreSignature({ ...base, family: "med" })).toBe(cofreSignature({ ...base, family: "canonical" }));
    expect(cofreSignature({ ...base, family: "legacy" })).toMatch(/^sha256=[0-9a-f]{64}$/);
  });
  test("every header is present", () => {
    expect(Object.keys(deliveryHeaders({ ...base, family: "canonical" })).sort()).toEqual(
      [
        "Content-Type",
        "User-Agent",
        "X-Cofre-Delivery-Id",
        "X-Cofre-Event-Type",
        "X-Cofre-Signature",
        "webhook-id",
        "webhook-signature",
        "webhook-timestamp",
      ].sort(),
    );
  });
});
