/** In-memory idempotency claims (src/store/port/claims.ts): one process serves one SQLite database. */
import type { ClaimRef, HeldClaim, IdempotencyClaims } from "../port/claims";

/** Sweep expired holds once the map holds this many (claims begun and never finished). */
const SWEEP_AT = 10_000;

interface Hold extends HeldClaim {
  owner: object;
  lockedUntil: number;
}

/** The claims of this process, in a Map keyed by the claim key. */
export class MemoryIdempotencyClaims implements IdempotencyClaims {
  private readonly holds = new Map<string, Hold>();
  readonly durable = false;

  acquire(key: string, claim: ClaimRef, now: number, lockedUntil: number): HeldClaim | null {
    const held = this.holds.get(key);
    if (held && (held.lockedUntil > now || held.requestHash !== claim.requestHash)) return held;
    if (this.holds.size >= SWEEP_AT) this.sweep(now);
    this.holds.set(key, { owner: claim, requestHash: claim.requestHash, lockedUntil });
    return null;
  }

  release(key: string, claim: ClaimRef): void {
    if (this.holds.get(key)?.owner === claim) this.holds.delete(key);
  }

  sweep(now: number): void {
    for (const [k, v] of this.holds) if (v.lockedUntil <= now) this.holds.delete(k);
  }
}
