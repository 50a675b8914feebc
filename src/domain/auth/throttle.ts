/**
 * Login attempt limits (issue 13 section 8): failures are counted per (email, client address),
 * per address and per email, so that nobody who merely knows an owner's email can lock the owner
 * out. In memory (one instance; `LoginLimiter` is the seam for a shared version); fixed windows of LOGIN_WINDOW_SECONDS starting at the
 * first counted failure. The rules, in the order they are checked:
 *
 * 1. (email, address): after PAIR_LIMIT failures that address waits for the window to end for
 *    that email only (the guesser is stopped; the owner elsewhere is not).
 * 2. address: after ADDRESS_LIMIT failures over any emails the address waits for the window to
 *    end (credential stuffing from one address).
 * 3. email, from every address together: the first EMAIL_FREE_FAILURES failures cost nothing;
 *    after them an attempt from an address that never logged in to this email must wait
 *    2^(failures - EMAIL_FREE_FAILURES) seconds after the previous failed attempt, at most
 *    EMAIL_BACKOFF_MAX_SECONDS (a distributed guesser gets at most ~one guess a minute). Addresses
 *    that logged in to the email in the last KNOWN_ADDRESS_DAYS skip this rule, so the owner's
 *    usual address is never slowed by strangers, and a new address waits a minute at most.
 *
 * An attempt is counted when it is admitted (so parallel requests cannot all slip under a
 * limit) and a success takes it back: the (email, address) count is cleared and the address and
 * email counts lose that attempt.
 */
import type { Clock } from "../../lib/clock";

export const LOGIN_WINDOW_SECONDS = 15 * 60;
/** Failures per (email, address) per window. */
export const PAIR_LIMIT = 10;
/** Failures per client address per window, over every email. */
export const ADDRESS_LIMIT = 100;
/** Failures per email per window (all addresses) before the per-email backoff starts. */
export const EMAIL_FREE_FAILURES = 20;
/** Longest per-email backoff between two attempts, seconds. */
export const EMAIL_BACKOFF_MAX_SECONDS = 60;
/** How long an address that logged in to an email skips that email's backoff, days. */
export const KNOWN_ADDRESS_DAYS = 30;

const MAX_ENTRIES = 50_000;

interface Bucket {
  count: number;
  resetAt: number;
  /** Epoch ms of the last admitted attempt (the per-email backoff counts from it). */
  lastAt: number;
}

/**
 * The login limits as `Deps` holds them (`deps.loginThrottle`, built in createDeps): an interface
 * so a deployment of several instances can share the counts (issue 16, next phase). Callers
 * await both methods.
 */
export interface LoginLimiter {
  /** Admits one attempt (counted as a failure until `succeeded`): 0 when admitted, else the seconds to wait. */
  admit(email: string, address: string): number | Promise<number>;
  /** The admitted attempt was right: takes it back and remembers the address for the email. */
  succeeded(email: string, address: string): void | Promise<void>;
}

/** The in-process LoginLimiter (rules in the module header). */
export class LoginThrottle implements LoginLimiter {
  private buckets = new Map<string, Bucket>();
  /** `email\naddress` -> epoch ms until which the address counts as the email's own. */
  private known = new Map<string, number>();
  constructor(private readonly clock: Clock) {}

  /**
   * Admits one attempt for `email` from `address` and counts it as a failure until `succeeded`
   * says otherwise. Returns 0 when admitted, else the seconds to wait (nothing is counted).
   */
  admit(email: string, address: string): number {
    const now = this.clock.nowMs();
    const pairKey = `p:${email}\n${address}`;
    const pair = this.live(pairKey, now);
    if (pair && pair.count >= PAIR_LIMIT) return secondsUntil(pair.resetAt, now);
    const addr = this.live(`a:${address}`, now);
    if (addr && addr.count >= ADDRESS_LIMIT) return secondsUntil(addr.resetAt, now);
    const mail = this.live(`e:${email}`, now);
    if (mail && mail.count >= EMAIL_FREE_FAILURES && !this.isKnown(email, address, now)) {
      const backoff = Math.min(2 ** (mail.count - EMAIL_FREE_FAILURES), EMAIL_BACKOFF_MAX_SECONDS) * 1000;
      if (now < mail.lastAt + backoff) return secondsUntil(mail.lastAt + backoff, now);
    }
    this.bump(pairKey, now);
    this.bump(`a:${address}`, now);
    this.bump(`e:${email}`, now);
    if (this.buckets.size > MAX_ENTRIES) for (const [k, b] of this.buckets) if (b.resetAt <= now) this.buckets.delete(k);
    return 0;
  }

  /** The admitted attempt of `email` from `address` was right: takes it back and remembers the address. */
  succeeded(email: string, address: string): void {
    const now = this.clock.nowMs();
    this.buckets.delete(`p:${email}\n${address}`);
    for (const key of [`a:${address}`, `e:${email}`]) {
      const b = this.live(key, now);
      if (b && --b.count <= 0) this.buckets.delete(key);
    }
    if (this.known.size > MAX_ENTRIES) for (const [k, until] of this.known) if (until <= now) this.known.delete(k);
    this.known.set(`${email}\n${address}`, now + KNOWN_ADDRESS_DAYS * 86_400_000);
  }

  private isKnown(email: string, address: string, now: number): boolean {
    const until = this.known.get(`${email}\n${address}`);
    return until !== undefined && until > now;
  }

  private live(key: string, now: number): Bucket | undefined {
    const b = this.buckets.get(key);
    if (b && b.resetAt <= now) {
      this.buckets.delete(key);
      return undefined;
    }
    return b;
  }

  private bump(key: string, now: number): void {
    const b = this.live(key, now);
    if (b) {
      b.count++;
      b.lastAt = now;
    } else this.buckets.set(key, { count: 1, resetAt: now + LOGIN_WINDOW_SECONDS * 1000, lastAt: now });
  }
}

function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}
