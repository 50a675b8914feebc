/**
 * Login attempt limits (issue 13 section 8): failures are counted per (email, client address),
 * per address and per email, so that nobody who merely knows an owner's email can lock the owner
 * out. Counts live in a LoginBucketStore (in memory on SQLite; shared by every instance on
 * PostgreSQL, exact: src/store/port/login-buckets.ts); fixed windows of LOGIN_WINDOW_SECONDS
 * starting at the first counted failure. The rules, in the order they are checked:
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
import type { LoginBucket, LoginBucketStore, LoginBucketView } from "../../store/port/login-buckets";

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

/**
 * The login limits as `Deps` holds them (`deps.loginThrottle`, built in createDeps): an interface,
 * so that tests can observe it; several instances share the counts through the LoginBucketStore
 * they are built on. Callers await both methods.
 */
export interface LoginLimiter {
  /** Admits one attempt (counted as a failure until `succeeded`): 0 when admitted, else the seconds to wait. */
  admit(email: string, address: string): number | Promise<number>;
  /** The admitted attempt was right: takes it back and remembers the address for the email. */
  succeeded(email: string, address: string): void | Promise<void>;
}

/**
 * The LoginLimiter (rules in the module header) over a LoginBucketStore: in memory on SQLite, the
 * `login_throttle` table shared by every instance on PostgreSQL. Bucket keys: `p:<email>\n<address>`,
 * `a:<address>`, `e:<email>` (failures until `resetAt`), `k:<email>\n<address>` (the address
 * logged in to the email; known until `resetAt`).
 */
export class LoginThrottle implements LoginLimiter {
  constructor(
    private readonly clock: Clock,
    private readonly buckets: LoginBucketStore = new MemoryLoginBuckets(),
  ) {}

  /**
   * Admits one attempt for `email` from `address` and counts it as a failure until `succeeded`
   * says otherwise. Returns 0 when admitted, else the seconds to wait (nothing is counted).
   */
  admit(email: string, address: string): number | Promise<number> {
    const now = this.clock.nowMs();
    const pairKey = `p:${email}\n${address}`;
    const addrKey = `a:${address}`;
    const mailKey = `e:${email}`;
    const knownKey = `k:${email}\n${address}`;
    return this.buckets.transact([email, address], [pairKey, addrKey, mailKey, knownKey], now, (b) => {
      const pair = live(b, pairKey, now);
      if (pair && pair.count >= PAIR_LIMIT) return secondsUntil(pair.resetAt, now);
      const addr = live(b, addrKey, now);
      if (addr && addr.count >= ADDRESS_LIMIT) return secondsUntil(addr.resetAt, now);
      const mail = live(b, mailKey, now);
      if (mail && mail.count >= EMAIL_FREE_FAILURES && !live(b, knownKey, now)) {
        const backoff = Math.min(2 ** (mail.count - EMAIL_FREE_FAILURES), EMAIL_BACKOFF_MAX_SECONDS) * 1000;
        if (now < mail.lastAt + backoff) return secondsUntil(mail.lastAt + backoff, now);
      }
      for (const key of [pairKey, addrKey, mailKey]) bump(b, key, now);
      return 0;
    });
  }

  /** The admitted attempt of `email` from `address` was right: takes it back and remembers the address. */
  succeeded(email: string, address: string): void | Promise<void> {
    const now = this.clock.nowMs();
    const pairKey = `p:${email}\n${address}`;
    const knownKey = `k:${email}\n${address}`;
    const counted = [`a:${address}`, `e:${email}`];
    return this.buckets.transact([email, address], [pairKey, ...counted, knownKey], now, (b) => {
      b.delete(pairKey);
      for (const key of counted) {
        const bucket = live(b, key, now);
        if (bucket && bucket.count - 1 <= 0) b.delete(key);
        else if (bucket) b.set(key, { ...bucket, count: bucket.count - 1 });
      }
      b.set(knownKey, { count: 1, resetAt: now + KNOWN_ADDRESS_DAYS * 86_400_000, lastAt: now });
    });
  }
}

/** Sweep expired buckets once the in-memory map holds this many. */
const MAX_ENTRIES = 50_000;

/** In-memory login buckets (one process: SQLite, tests); `transact` runs synchronously, so nothing interleaves. */
export class MemoryLoginBuckets implements LoginBucketStore {
  private readonly buckets = new Map<string, LoginBucket>();
  private readonly view: LoginBucketView = {
    get: (key) => this.buckets.get(key),
    set: (key, b) => void this.buckets.set(key, b),
    delete: (key) => void this.buckets.delete(key),
  };

  transact<T>(_lockKeys: string[], _keys: string[], now: number, fn: (view: LoginBucketView) => T): T {
    if (this.buckets.size > MAX_ENTRIES)
      for (const [k, b] of this.buckets) if (b.resetAt <= now) this.buckets.delete(k);
    return fn(this.view);
  }
}

/** The bucket `key` unless it expired by `now` (an expired one is deleted). */
function live(b: LoginBucketView, key: string, now: number): LoginBucket | undefined {
  const bucket = b.get(key);
  if (bucket && bucket.resetAt <= now) {
    b.delete(key);
    return undefined;
  }
  return bucket;
}

/** Counts one attempt in bucket `key` (a new window starts at `now` when there is none). */
function bump(b: LoginBucketView, key: string, now: number): void {
  const bucket = live(b, key, now);
  b.set(
    key,
    bucket
      ? { count: bucket.count + 1, resetAt: bucket.resetAt, lastAt: now }
      : { count: 1, resetAt: now + LOGIN_WINDOW_SECONDS * 1000, lastAt: now },
  );
}

function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}
