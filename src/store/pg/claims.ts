/**
 * Durable idempotency claims on PostgreSQL (src/store/port/claims.ts): a claim is the key's
 * `in_progress` row in `idempotency_keys`, taken with one `insert ... on conflict` statement in
 * its own transaction, so two instances never run one key twice. The business unit later turns
 * that row `completed` (IdempotencyRepo.complete keeps its id); a failed request deletes it
 * (IdempotencyRepo.releaseInProgress). A process that dies mid-request leaves the row locked
 * until `locked_until`: then the same request (same body hash) takes it over, another body
 * still gets `idempotency_key_reused`.
 */
import type { ClaimRef, HeldClaim, IdempotencyClaims } from "../port/claims";
import type { PgStore } from "./index";

export class PgIdempotencyClaims implements IdempotencyClaims {
  readonly durable = true;

  constructor(private readonly store: PgStore) {}

  async acquire(_key: string, c: ClaimRef, now: number, lockedUntil: number): Promise<HeldClaim | null> {
    await this.store.started;
    const sql = this.store.sql;
    // Inserted, or an abandoned claim of the same request taken over: the row is ours. The
    // conflict arbiter sees the latest committed row (never a snapshot), so a record completed
    // just before is never missed; it then makes the WHERE false and nothing is returned.
    const [taken] = await sql`insert into idempotency_keys (id, account_id, livemode, scope, key, request_hash, state, locked_until, created_at)
      values (${c.id}, ${c.accountId}, ${c.livemode}, ${c.scope}, ${c.key}, ${c.requestHash}, 'in_progress', ${lockedUntil}, ${now})
      on conflict (account_id, livemode, scope, key) do update set locked_until = excluded.locked_until
        where idempotency_keys.state = 'in_progress' and idempotency_keys.locked_until <= ${now}
          and idempotency_keys.request_hash = excluded.request_hash
      returning id`;
    if (taken) {
      c.id = taken.id as string;
      return null;
    }
    // Held by another request, or completed: the caller reads the record and decides (replay,
    // reused, in use). The holder's hash tells "in use" from "reused" when still in progress.
    const [held] = await sql`select request_hash from idempotency_keys
      where account_id = ${c.accountId} and livemode = ${c.livemode} and scope = ${c.scope} and key = ${c.key}`;
    return { requestHash: (held?.request_hash as string | undefined) ?? c.requestHash };
  }

  /** Nothing to free in memory: IdempotencyStore.release deletes the row (releaseInProgress). */
  release(): void {}

  /** Abandoned rows are taken over when their lock expires and pruned with the records. */
  sweep(): void {}
}
