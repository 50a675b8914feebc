/**
 * The poll schedule of live bcb_pix_v2 charges (src/providers/bcb-pix-v2/polling.ts; issue 14 §3):
 * 15 s, then 1 min, 5 min, then every 15 min, a check at expires_at, then every minute until
 * expires_at + 10 min.
 */
import { describe, expect, test } from "bun:test";
import { nextPollAt } from "../../src/providers/bcb-pix-v2/polling";

const S = 1000;
const M = 60 * S;

describe("the next poll of a live charge", () => {
  test("follows 15 s, 1 min, 5 min, then every 15 min after creation", () => {
    const expires = 24 * 60 * M;
    const seen: number[] = [];
    let now = 0;
    for (let i = 0; i < 6; i++) seen.push((now = nextPollAt(0, expires, now)!));
    expect(seen).toEqual([15 * S, 75 * S, 375 * S, 375 * S + 15 * M, 375 * S + 30 * M, 375 * S + 45 * M]);
  });

  test("never skips expires_at, then polls every minute until expires_at + 10 min, then stops", () => {
    expect(nextPollAt(0, 10 * M, 9 * M)).toBe(10 * M);
    expect(nextPollAt(0, 10 * M, 10 * M)).toBe(11 * M);
    expect(nextPollAt(0, 10 * M, 19 * M + 30 * S)).toBe(20 * M);
    expect(nextPollAt(0, 10 * M, 20 * M)).toBeUndefined();
  });

  test("a charge without expiry is polled every 15 min for ever", () => {
    const later = 375 * S + 1000 * 15 * M; // a poll time far ahead
    expect(nextPollAt(0, null, later)).toBe(later + 15 * M);
    expect(nextPollAt(0, null, later - 1)).toBe(later);
  });
});
