/**
 * Durable idempotency claims on PostgreSQL (src/store/port/claims.ts): a claim is the key's
 * `in_progress` row in `idempotency_keys`, taken with one `insert ... on conflict` statement in
 * its own transaction, so two instances never run one key twice. The business unit later turns
 * that row `completed` (IdempotencyRepo.complete keeps its id); a failed request deletes it
 * (IdempotencyRepo.releaseInProgress).
 *
 * A process that dies mid-request leaves its row `in_progress`. The same request (same body
 * hash) takes it over once `locked_until` passed, or at once when the row's `holder` instance is
 * provably gone: a named instance (PgStore.instanceName) keeps sessions open for as long as it
 * lives (its notice connection), and PostgreSQL drops a killed process's sessions as its
 * sockets close, so no session of that name in pg_stat_activity means it died. Another body
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
    const me = this.store.instanceName;
    // Inserted, or an abandoned claim of the same request taken over: the row is ours. The
    // conflict arbiter sees the latest committed row (never a snapshot), so a record completed
    // just before is never missed; it then makes the WHERE false and nothing is returned.
    const [taken] =
      await sql`insert into idempotency_keys (id, account_id, livemode, scope, key, request_hash, state, locked_until, created_at, holder)
      values (${c.id}, ${c.accountId}, ${c.livemode}, ${c.scope}, ${c.key}, ${c.requestHash}, 'in_progress', ${lockedUntil}, ${now}, ${me})
      on conflict (account_id, livemode, scope, key) do update set locked_until = excluded.locked_until, holder = excluded.holder
        where idempotency_keys.state = 'in_progress' and idempotency_keys.locked_until <= ${now}
          and idempotency_keys.request_hash = excluded.request_hash
      returning id`;
    if (taken) {
      c.id = taken.id as string;
      return null;
    }
    // Held by another request, or completed: the caller reads the record and decides (replay,
    // reused, in use). The holder's hash tells "in use" from "reused" when still in progress.
    const [held] = await sql`select id, request_hash, state, holder from idempotency_keys
      where account_id = ${c.accountId} and livemode = ${c.livemode} and scope = ${c.scope} and key = ${c.key}`;
    if (
      held &&
      held.state === "in_progress" &&
      held.request_hash === c.requestHash &&
      held.holder &&
      held.holder !== me
    ) {
      // The holder died mid-request (a crash, then this retry): take the claim over now rather
      // than answer 409 until its lock expires. Conditional on the same dead holder, so two
      // retries racing here take it once.
      const [over] = await sql`update idempotency_keys set holder = ${me}, locked_until = ${lockedUntil}
        where id = ${held.id} and state = 'in_progress' and holder = ${held.holder}
          and not exists (select 1 from pg_stat_activity where datname = current_database() and application_name = ${held.holder})
        returning id`;
      if (over) {
        c.id = over.id as string;
        return null;
      }
    }
    return { requestHash: (held?.request_hash as string | undefined) ?? c.requestHash };
  }

  /** Nothing to free in memory: IdempotencyStore.release deletes the row (releaseInProgress). */
  release(): void {}

  /** Abandoned rows are taken over (see the module header) and pruned with the records. */
  sweep(): void {}
}
