/**
 * Idempotency records, shared by every money-moving POST (issue "Runtime foundation" part 6).
 * Keyed by (account, livemode, route scope, key). A claim is taken in its own short transaction;
 * the response is written by `complete(t, ...)` inside the business transaction, so the record
 * and the side effect commit together. Errors are never stored: the claim is released.
 */
import { and, eq, lt } from "drizzle-orm";
import { idempotencyKeys } from "../../../db/schema";
import { tx, type Db, type DbOrTx } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { canonicalJson, sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { ApiError } from "../../http/errors";

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
 * Throws ApiError `idempotency_key_missing` / `invalid_idempotency_key` (400) naming `param`.
 */
export function checkIdempotencyKey(key: unknown, param = "Idempotency-Key"): string {
  if (key === undefined || key === null || key === "")
    throw new ApiError("idempotency_key_missing", `${param} is required for this request.`, { param });
  if (typeof key !== "string" || key.length < 8 || key.length > 128 || /[\x00-\x1f\x7f]/.test(key))
    throw new ApiError("invalid_idempotency_key", `${param} must be 8-128 printable characters.`, { param });
  return key;
}

export class IdempotencyStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims the key or tells what to do instead. Throws 409 `idempotency_key_reused` when the key
   * was used with a different body, 409 `idempotency_key_in_use` (Retry-After: 1) while the first
   * request still runs.
   */
  begin(req: IdempotencyRequest): BeginResult {
    const hash = sha256Hex(canonicalJson(req.body ?? null));
    const now = this.clock.nowMs();
    return tx(this.db, (t) => {
      const where = and(
        eq(idempotencyKeys.accountId, req.accountId),
        eq(idempotencyKeys.livemode, req.livemode),
        eq(idempotencyKeys.scope, req.scope),
        eq(idempotencyKeys.key, req.key),
      );
      const row = t.select().from(idempotencyKeys).where(where).get();
      if (!row) {
        const id = newId("idempotency");
        t.insert(idempotencyKeys)
          .values({ id, ...pick(req), requestHash: hash, state: "in_progress", lockedUntil: now + LOCK_MS, createdAt: now })
          .run();
        return { kind: "claimed", claim: { id } } as const;
      }
      if (row.requestHash !== hash)
        throw new ApiError("idempotency_key_reused", "This idempotency key was already used with a different request body.");
      if (row.state === "completed")
        return { kind: "replay", status: row.responseStatus!, body: JSON.parse(row.responseBody!) } as const;
      if ((row.lockedUntil ?? 0) > now)
        throw new ApiError("idempotency_key_in_use", "A request with this idempotency key is still being processed.", {
          headers: { "Retry-After": "1" },
        });
      // The first request died mid-flight: take the claim over.
      t.update(idempotencyKeys).set({ lockedUntil: now + LOCK_MS }).where(eq(idempotencyKeys.id, row.id)).run();
      return { kind: "claimed", claim: { id: row.id } } as const;
    });
  }

  /** Stores the response; call it with the business transaction so both commit together. */
  complete(t: DbOrTx, claim: Claim, status: number, body: unknown): void {
    t.update(idempotencyKeys)
      .set({ state: "completed", responseStatus: status, responseBody: JSON.stringify(body), lockedUntil: null })
      .where(eq(idempotencyKeys.id, claim.id))
      .run();
  }

  /** True when `complete` already ran for the claim. */
  isCompleted(claim: Claim): boolean {
    return this.db.select({ s: idempotencyKeys.state }).from(idempotencyKeys).where(eq(idempotencyKeys.id, claim.id)).get()?.s === "completed";
  }

  /** Drops an unfinished claim (the request failed; errors are not stored). */
  release(claim: Claim): void {
    this.db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.id, claim.id), eq(idempotencyKeys.state, "in_progress")))
      .run();
  }

  /** Deletes records older than the retention window; returns how many. */
  prune(): number {
    const cutoff = this.clock.nowMs() - IDEMPOTENCY_RETENTION_MS;
    const result = this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).run() as unknown as { changes: number };
    return result.changes;
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
    try {
      const result = await work(begun.claim);
      // A write that forgot to store its response still gets one: better late than replaying nothing.
      if (!this.isCompleted(begun.claim)) this.complete(this.db, begun.claim, result.status, result.body);
      return { ...result, replayed: false };
    } catch (err) {
      this.release(begun.claim);
      throw err;
    }
  }
}

function pick(r: IdempotencyRequest) {
  return { accountId: r.accountId, livemode: r.livemode, scope: r.scope, key: r.key };
}
