/**
 * Idempotency records, shared by every money-moving POST (issue "Runtime foundation" part 6).
 * Keyed by (account, livemode, route scope, key). A claim is held in memory by this process
 * (Cofre is one process; the rate limiter lives in memory too) with the same 60 s lock a stored
 * claim had, so claiming costs no commit; the record is written once, completed, by
 * `complete(t, ...)` inside the business transaction, so the record and the side effect commit
 * together. Errors are never stored: the claim is released. A stored `in_progress` row (written
 * by an older version or another process) is still honoured: reused / in use / taken over once
 * its lock expired. Every statement is prepared once per database (hot path of each create).
 */
import type { Statement } from "bun:sqlite";
import type { Db, DbOrTx } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { canonicalJson, sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
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

/** An owned in-progress record; pass it to `complete` inside the business transaction. */
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

/** An in-flight claim of this process (the in-memory lock). */
interface Inflight {
  claim: OwnedClaim;
  lockedUntil: number;
}

/** What a claim of this store carries to write the completed record (every claim comes from `begin`). */
interface OwnedClaim extends Claim, ClaimRecord {
  /** Set by `complete` (the record was written with the caller's transaction). */
  completed?: boolean;
}

interface StoredRow {
  id: string;
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  locked_until: number | null;
}

function prepare(db: Db) {
  const c = db.$client;
  return {
    find: c.prepare(
      "select id, request_hash, state, response_status, response_body, locked_until from idempotency_keys where account_id = ? and livemode = ? and scope = ? and key = ?",
    ),
    complete: c.prepare(
      `insert into idempotency_keys (id, account_id, livemode, scope, key, request_hash, state, response_status, response_body, locked_until, created_at)
       values (?, ?, ?, ?, ?, ?, 'completed', ?, ?, null, ?)
       on conflict (account_id, livemode, scope, key) do update set
         state = 'completed', response_status = excluded.response_status, response_body = excluded.response_body, locked_until = null`,
    ),
    release: c.prepare("delete from idempotency_keys where id = ? and state = 'in_progress'"),
    prune: c.prepare("delete from idempotency_keys where created_at < ?"),
  } satisfies Record<string, Statement>;
}

/** Sweep expired in-memory claims once the map holds this many (claims begun and never finished). */
const SWEEP_AT = 10_000;

export class IdempotencyStore {
  private readonly st: ReturnType<typeof prepare>;
  private readonly inflight = new Map<string, Inflight>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.st = prepare(db);
  }

  /**
   * Claims the key or tells what to do instead. Throws 409 `idempotency_key_reused` when the key
   * was used with a different body, 409 `idempotency_key_in_use` (Retry-After: 1) while the first
   * request still runs (its claim is released, completed, or older than 60 s).
   */
  begin(req: IdempotencyRequest): BeginResult {
    const hash = sha256Hex(canonicalJson(req.body ?? null));
    const now = this.clock.nowMs();
    const row = this.st.find.get(req.accountId, req.livemode ? 1 : 0, req.scope, req.key) as StoredRow | null;
    if (row && row.request_hash !== hash) throw reused();
    if (row?.state === "completed") return { kind: "replay", status: row.response_status!, body: JSON.parse(row.response_body!) };
    const k = mapKey(req);
    const held = this.inflight.get(k);
    if (held && held.claim.requestHash !== hash) throw reused();
    if (held && held.lockedUntil > now) throw inUse();
    if (row && (row.locked_until ?? 0) > now) throw inUse();
    // Free, or the first request died mid-flight (lock expired): take the claim over.
    const claim: OwnedClaim = {
      id: row?.id ?? newId("idempotency"),
      accountId: req.accountId,
      livemode: req.livemode,
      scope: req.scope,
      key: req.key,
      requestHash: hash,
      createdAt: now,
    };
    if (this.inflight.size >= SWEEP_AT) this.sweep(now);
    this.inflight.set(k, { claim, lockedUntil: now + LOCK_MS });
    return { kind: "claimed", claim };
  }

  /** Stores the response; call it with the business transaction so both commit together. */
  complete(t: DbOrTx, claim: Claim, status: number, body: unknown): void {
    // Prepared statements run on the single connection, i.e. inside the caller's open transaction `t`.
    void t;
    const c = claim as OwnedClaim;
    this.st.complete.run(c.id, c.accountId, c.livemode ? 1 : 0, c.scope, c.key, c.requestHash, status, JSON.stringify(body), c.createdAt);
    c.completed = true;
  }

  /** What identifies the claim's record (the key of a live create's durable intent, charges/intents.ts). */
  recordOf(claim: Claim): ClaimRecord {
    const c = claim as OwnedClaim;
    return { accountId: c.accountId, livemode: c.livemode, scope: c.scope, key: c.key, requestHash: c.requestHash, createdAt: c.createdAt };
  }

  /**
   * A claim of `record` that holds no in-memory lock, for a completion written outside any request
   * (the create-intent recovery job); `id` is the record's id when one is stored.
   */
  claimOf(record: ClaimRecord): Claim {
    const row = this.st.find.get(record.accountId, record.livemode ? 1 : 0, record.scope, record.key) as StoredRow | null;
    const claim: OwnedClaim = { id: row?.id ?? newId("idempotency"), ...record };
    return claim;
  }

  /** Drops an unfinished claim (the request failed; errors are not stored). */
  release(claim: Claim): void {
    this.forget(claim);
    this.st.release.run(claim.id);
  }

  /** Deletes records older than the retention window; returns how many. */
  prune(): number {
    const now = this.clock.nowMs();
    this.sweep(now);
    return this.st.prune.run(now - IDEMPOTENCY_RETENTION_MS).changes;
  }

  /**
   * Runs `work` under the key: replays a stored response, or claims the key, runs `work` (which
   * must call `complete(t, claim, ...)` inside its transaction) and releases the claim when it
   * throws. Returns the response and whether it was replayed.
   */
  async run(
    req: IdempotencyRequest,
    work: (claim: Claim) => Promise<{ status: number; body: unknown }> | { status: number; body: unknown },
  ): Promise<{ status: number; body: unknown; replayed: boolean }> {
    const begun = this.begin(req);
    if (begun.kind === "replay") return { status: begun.status, body: begun.body, replayed: true };
    const claim = begun.claim as OwnedClaim;
    try {
      const result = await work(claim);
      // A write that forgot to store its response still gets one: better late than replaying nothing.
      if (!claim.completed) this.complete(this.db, claim, result.status, result.body);
      this.forget(claim);
      return { ...result, replayed: false };
    } catch (err) {
      this.release(claim);
      throw err;
    }
  }

  /** Removes the in-memory lock of `claim` (when it still owns it). */
  private forget(claim: Claim): void {
    const c = claim as OwnedClaim;
    const k = mapKey(c);
    if (this.inflight.get(k)?.claim === c) this.inflight.delete(k);
  }

  /** Drops in-memory claims whose lock expired (their request died or never finished). */
  private sweep(now: number): void {
    for (const [k, v] of this.inflight) if (v.lockedUntil <= now) this.inflight.delete(k);
  }
}

function mapKey(r: { accountId: string; livemode: boolean; scope: string; key: string }): string {
  return `${r.accountId}\u0000${r.livemode ? 1 : 0}\u0000${r.scope}\u0000${r.key}`;
}

function reused(): DomainError {
  return new DomainError("idempotency_key_reused", "This idempotency key was already used with a different request body.");
}

function inUse(): DomainError {
  return new DomainError("idempotency_key_in_use", "A request with this idempotency key is still being processed.", { headers: { "Retry-After": "1" } });
}
