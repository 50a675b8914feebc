/**
 * Idempotency records, shared by every money-moving POST (issue "Runtime foundation" part 6).
 * Keyed by (account, livemode, route scope, key). A claim is held by the in-flight claims
 * (`IdempotencyClaims`, src/store/port/claims.ts: in memory on SQLite) with the same 60 s lock a
 * stored claim had, so claiming costs no commit; the record is written once, completed, by
 * `complete(uow, ...)` inside the business unit of work, so the record and the side effect commit
 * together. Errors are never stored: the claim is released. A stored `in_progress` record (written
 * by an older version or another process) is still honoured: reused / in use / taken over once
 * its lock expired. Records live behind the store (src/store/port/idempotency.ts).
 */
import type { Clock } from "../../lib/clock";
import { canonicalJson, sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import type { Store, Uow } from "../../store/port";
import type { IdempotencyClaims } from "../../store/port/claims";
import { DomainError } from "../errors";

/** How long an in-progress claim blocks others before it counts as abandoned (ms). */
const LOCK_MS = 60_000;
/** Records are kept at least this long (24 h), then pruned by the `idempotency.prune` job. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3600 * 1000;

export interface IdempotencyRequest {
  accountId: string;
  livemode: boolean;
  /** e.g. `POST /v1/charges`; keys are unique per scope. */
  scope: string;
  /** 8-128 characters (interface.md Limits); validate with `checkIdempotencyKey` first. */
  key: string;
  /** The request body; its canonical JSON is hashed to detect reuse with a different body. */
  body: unknown;
}

/** An owned in-progress record; pass it to `complete` inside the business unit of work. */
export interface Claim {
  id: string;
}

export type BeginResult = { kind: "claimed"; claim: Claim } | { kind: "replay"; status: number; body: unknown };

/**
 * Validates an idempotency key: required, 8-128 characters, no control characters.
 * Throws DomainError `idempotency_key_missing` / `invalid_idempotency_key` (400) naming `param`.
 */
export function checkIdempotencyKey(key: unknown, param = "Idempotency-Key"): string {
  if (key === undefined || key === null || key === "")
    throw new DomainError("idempotency_key_missing", `${param} is required for this request.`, { param });
  if (typeof key !== "string" || key.length < 8 || key.length > 128 || /[\x00-\x1f\x7f]/.test(key))
    throw new DomainError("invalid_idempotency_key", `${param} must be 8-128 printable characters.`, { param });
  return key;
}

/** The record a claim completes: its key, the request's hash and when it was first claimed (epoch ms). */
export interface ClaimRecord {
  accountId: string;
  livemode: boolean;
  scope: string;
  key: string;
  requestHash: string;
  createdAt: number;
}

/** What a claim of this service carries to write the completed record (every claim comes from `begin` or `claimOf`). */
interface OwnedClaim extends Claim, ClaimRecord {
  /** Set by `complete` (the record was written with the caller's unit of work). */
  completed?: boolean;
}

export class IdempotencyStore {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly claims: IdempotencyClaims,
  ) {}

  /**
   * Claims the key or tells what to do instead. Throws 409 `idempotency_key_reused` when the key
   * was used with a different body, 409 `idempotency_key_in_use` (Retry-After: 1) while the first
   * request still runs (its claim is released, completed, or older than 60 s).
   * Call it outside any unit of work (it reads the stored record on `store.read`).
   */
  async begin(req: IdempotencyRequest): Promise<BeginResult> {
    const hash = sha256Hex(canonicalJson(req.body ?? null));
    const now = this.clock.nowMs();
    const k = mapKey(req);
    const claim: OwnedClaim = {
      id: newId("idempotency"),
      accountId: req.accountId,
      livemode: req.livemode,
      scope: req.scope,
      key: req.key,
      requestHash: hash,
      createdAt: now,
    };
    // The in-flight claim is taken before the stored record is read: a request that finds the key
    // free only then reads the store, so it sees the record of any request that held the key
    // before it (records are written before their claim is let go). A durable claim (PostgreSQL)
    // IS the key's record: taking it proves there is no completed one, so nothing is read.
    const acquired = this.claims.acquire(k, claim, now, now + LOCK_MS);
    const holder = acquired instanceof Promise ? await acquired : acquired;
    if (!holder && this.claims.durable) return { kind: "claimed", claim };
    let row;
    try {
      row = await this.store.read.idempotency.find(req.accountId, req.livemode, req.scope, req.key);
    } catch (err) {
      if (!holder) this.claims.release(k, claim);
      throw err;
    }
    let refusal: DomainError | BeginResult | null = null;
    if (row && row.requestHash !== hash) refusal = reused();
    else if (row?.state === "completed")
      refusal = { kind: "replay", status: row.responseStatus!, body: JSON.parse(row.responseBody!) };
    else if (holder) refusal = holder.requestHash !== hash ? reused() : inUse();
    else if (row && (row.lockedUntil ?? 0) > now) refusal = inUse();
    if (refusal) {
      if (!holder) this.claims.release(k, claim);
      if (refusal instanceof DomainError) throw refusal;
      return refusal;
    }
    // Free, or the first request died mid-flight (lock expired): the claim is ours.
    if (row) claim.id = row.id;
    return { kind: "claimed", claim };
  }

  /**
   * Stores the response; call it inside the business unit of work so both commit together.
   */
  complete(uow: Uow, claim: Claim, status: number, body: unknown): Promise<void> {
    const c = claim as OwnedClaim;
    const done = uow.idempotency.complete(c, status, JSON.stringify(body));
    c.completed = true;
    return done;
  }

  /** What identifies the claim's record (the key of a live create's durable intent, charges/intents.ts). */
  recordOf(claim: Claim): ClaimRecord {
    const c = claim as OwnedClaim;
    return {
      accountId: c.accountId,
      livemode: c.livemode,
      scope: c.scope,
      key: c.key,
      requestHash: c.requestHash,
      createdAt: c.createdAt,
    };
  }

  /**
   * A claim of `record` that holds no in-flight lock, for a completion written outside any request
   * (the create-intent recovery job). Its id is only used when no record of the key is stored
   * yet: `complete` keeps the id of a stored one.
   */
  claimOf(record: ClaimRecord): Claim {
    const claim: OwnedClaim = { id: newId("idempotency"), ...record };
    return claim;
  }

  /** Drops an unfinished claim (the request failed; errors are not stored). Outside any unit. */
  async release(claim: Claim): Promise<void> {
    this.forget(claim);
    await this.store.read.idempotency.releaseInProgress(claim.id);
  }

  /** Deletes records older than the retention window; resolves with how many. Outside any unit. */
  async prune(): Promise<number> {
    const now = this.clock.nowMs();
    this.claims.sweep(now);
    return this.store.read.idempotency.pruneBefore(now - IDEMPOTENCY_RETENTION_MS);
  }

  /**
   * Runs `work` under the key: replays a stored response, or claims the key, runs `work` (which
   * must call `complete(uow, claim, ...)` inside its unit of work) and releases the claim when it
   * throws. Returns the response and whether it was replayed. Call it outside any unit of work.
   */
  async run(
    req: IdempotencyRequest,
    work: (claim: Claim) => Promise<{ status: number; body: unknown }> | { status: number; body: unknown },
  ): Promise<{ status: number; body: unknown; replayed: boolean }> {
    const begun = await this.begin(req);
    if (begun.kind === "replay") return { status: begun.status, body: begun.body, replayed: true };
    const claim = begun.claim as OwnedClaim;
    try {
      const result = await work(claim);
      // A write that forgot to store its response still gets one: better late than replaying nothing.
      if (!claim.completed) await this.store.tx((uow) => this.complete(uow, claim, result.status, result.body));
      this.forget(claim);
      return { ...result, replayed: false };
    } catch (err) {
      await this.release(claim);
      throw err;
    }
  }

  /** Removes the in-flight lock of `claim` (when it still owns it). */
  private forget(claim: Claim): void {
    const c = claim as OwnedClaim;
    this.claims.release(mapKey(c), c);
  }
}

function mapKey(r: { accountId: string; livemode: boolean; scope: string; key: string }): string {
  return `${r.accountId}\u0000${r.livemode ? 1 : 0}\u0000${r.scope}\u0000${r.key}`;
}

function reused(): DomainError {
  return new DomainError(
    "idempotency_key_reused",
    "This idempotency key was already used with a different request body.",
  );
}

function inUse(): DomainError {
  return new DomainError("idempotency_key_in_use", "A request with this idempotency key is still being processed.", {
    headers: { "Retry-After": "1" },
  });
}
