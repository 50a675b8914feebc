/**
 * When a live bcb_pix_v2 charge is queried next (issue 14 §3 "open live charges are polled with
 * backoff"): 15 s after creation, then 1 min later, 5 min later, then every 15 min; never past
 * `expires_at` without a check at `expires_at` itself (the check that confirms the expiry with
 * `GET /cob/{txid}`), then every minute until `expires_at` + 10 min, after which polling stops
 * (the sweep of `GET /pix` still catches a payment). Stateless: the next time follows from the
 * creation time and now, so a callback's confirmation never resets the backoff.
 */

/** Delays between the first polls, ms (15 s, 1 min, 5 min). */
export const POLL_STEPS_MS = [15_000, 60_000, 300_000] as const;
/** Delay between later polls, ms (15 min). */
export const POLL_EVERY_MS = 900_000;
/** Polls continue this long after `expires_at`, ms (10 min), while the PSP says nobody paid yet. */
export const POLL_GRACE_MS = 600_000;
/** Delay between polls after `expires_at`, ms (1 min). */
export const POLL_AFTER_EXPIRY_MS = 60_000;

/**
 * The next poll time (epoch ms) of a charge created at `createdAt` expiring at `expiresAt` (null:
 * no expiry), seen at `now`; undefined when polling is over. Always > now.
 */
export function nextPollAt(createdAt: number, expiresAt: number | null, now: number): number | undefined {
  let at = createdAt;
  for (const step of POLL_STEPS_MS) {
    at += step;
    if (at > now) break;
  }
  if (at <= now) at += (Math.floor((now - at) / POLL_EVERY_MS) + 1) * POLL_EVERY_MS;
  if (expiresAt === null) return at;
  if (now < expiresAt) return Math.min(at, expiresAt);
  if (now >= expiresAt + POLL_GRACE_MS) return undefined;
  return Math.min(now + POLL_AFTER_EXPIRY_MS, expiresAt + POLL_GRACE_MS);
}
