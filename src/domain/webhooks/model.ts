/**
 * Webhook delivery rules: statuses, the retry schedule (exponential backoff with jitter over
 * about three days), Retry-After bounds and the typed outcomes of one HTTP attempt.
 * interface.md "Delivery behaviour"; Svix retry practice (DESIGN.md).
 */

export const ENDPOINT_STATUSES = ["ACTIVE", "INACTIVE"] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

export const DELIVERY_STATUSES = ["PENDING", "PROCESSING", "DELIVERED", "FAILED", "CANCELLED"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Attempts per delivery before it is dead-lettered (`FAILED`). interface.md "Limits". */
export const MAX_ATTEMPTS = 15;

/** Characters of the merchant's response body kept on the delivery and the attempt. */
export const RESPONSE_BODY_LIMIT = 2048;

/**
 * Nominal delay in seconds before attempt n+1 after attempt n failed (index n-1), for n = 1..14.
 * Roughly doubling, capped at 24 h; the sum is 265,655 s (about 3.07 days) from the first
 * attempt to the fifteenth. Each delay gets +-20% jitter.
 */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = [
  5, 30, 120, 300, 600, 1800, 3600, 7200, 14_400, 21_600, 28_800, 43_200, 57_600, 86_400,
];

/** Jitter fraction: the delay is multiplied by a factor in [1 - J, 1 + J). */
export const JITTER = 0.2;

/** Bounds applied to a receiver's `Retry-After` (seconds). */
export const RETRY_AFTER_MIN_SECONDS = 1;
export const RETRY_AFTER_MAX_SECONDS = 86_400;

/**
 * Milliseconds to wait after failed attempt `attempt` (1-based). `random` returns [0, 1)
 * (injectable: tests pass a constant). 0.5 gives exactly the nominal delay.
 */
export function backoffMs(attempt: number, random: () => number): number {
  const i = Math.min(Math.max(attempt, 1), RETRY_SCHEDULE_SECONDS.length) - 1;
  const factor = 1 + (random() * 2 - 1) * JITTER;
  return Math.round(RETRY_SCHEDULE_SECONDS[i]! * 1000 * factor);
}

/**
 * Parses a `Retry-After` value (delta seconds or an HTTP date relative to `nowMs`) into seconds
 * clamped to [RETRY_AFTER_MIN_SECONDS, RETRY_AFTER_MAX_SECONDS]; null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const v = value.trim();
  let seconds: number;
  if (/^\d+$/.test(v)) seconds = Number(v);
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at)) return null;
    seconds = Math.ceil((at - nowMs) / 1000);
  }
  return Math.min(Math.max(seconds, RETRY_AFTER_MIN_SECONDS), RETRY_AFTER_MAX_SECONDS);
}

/** What one HTTP attempt came to. Only `delivered` ends the delivery successfully. */
export type DispatchOutcome =
  | { kind: "delivered"; statusCode: number; body: string; durationMs: number }
  | { kind: "http_error"; statusCode: number; body: string; retryAfterSeconds: number | null; durationMs: number }
  | { kind: "redirect"; statusCode: number; body: string; location: string | null; durationMs: number }
  | { kind: "timeout"; error: string; durationMs: number }
  | { kind: "network_error"; error: string; durationMs: number }
  | { kind: "refused"; error: string; durationMs: number };

/** The `lastError` text of an outcome (null when delivered). */
export function outcomeError(o: DispatchOutcome): string | null {
  switch (o.kind) {
    case "delivered":
      return null;
    case "http_error":
      return `HTTP ${o.statusCode}`;
    case "redirect":
      return `HTTP ${o.statusCode}: redirects are not followed${o.location ? ` (Location: ${o.location.slice(0, 200)})` : ""}`;
    default:
      return o.error;
  }
}

/** Status code of an outcome, when the receiver answered. */
export function outcomeStatusCode(o: DispatchOutcome): number | null {
  return "statusCode" in o ? o.statusCode : null;
}

/** Response body of an outcome, when the receiver answered. */
export function outcomeBody(o: DispatchOutcome): string | null {
  return "body" in o ? o.body : null;
}

/**
 * Milliseconds until the next attempt after failed attempt `attempt`: the receiver's bounded
 * `Retry-After` on 429/503 (no jitter), else the jittered schedule.
 */
export function nextDelayMs(o: DispatchOutcome, attempt: number, random: () => number): number {
  if (o.kind === "http_error" && (o.statusCode === 429 || o.statusCode === 503) && o.retryAfterSeconds !== null) {
    return o.retryAfterSeconds * 1000;
  }
  return backoffMs(attempt, random);
}
