/**
 * PostgreSQL implementation of the idempotency repository (src/store/port/idempotency.ts); claims are its rows too
 * (./claims.ts).
 */
import type { IdempotencyRecord, IdempotencyRepo } from "../port/idempotency";
import type { PgContext } from "./context";
import { rowOf } from "./map";

/** Builds the idempotency repository on `ctx`. */
export function idempotencyRepo(ctx: PgContext): IdempotencyRepo {
  const { sql } = ctx;
  return {
    async find(accountId, livemode, scope, key) {
      return (
        rowOf<IdempotencyRecord>(
          await sql`select id, request_hash, state, response_status, response_body, locked_until from idempotency_keys
            where account_id = ${accountId} and livemode = ${livemode} and scope = ${scope} and key = ${key}`,
        ) ?? null
      );
    },
    async complete(r, responseStatus, responseBody) {
      // Hot path (every idempotent write): completes the claim's row, or inserts the record.
      await sql`insert into idempotency_keys (id, account_id, livemode, scope, key, request_hash, state, response_status, response_body, locked_until, created_at)
        values (${r.id}, ${r.accountId}, ${r.livemode}, ${r.scope}, ${r.key}, ${r.requestHash}, 'completed', ${responseStatus}, ${responseBody}, null, ${r.createdAt})
        on conflict (account_id, livemode, scope, key) do update set
          state = 'completed', response_status = excluded.response_status, response_body = excluded.response_body, locked_until = null`;
    },
    async releaseInProgress(id) {
      await sql`delete from idempotency_keys where id = ${id} and state = 'in_progress'`;
    },
    async pruneBefore(beforeMs) {
      return (await sql`delete from idempotency_keys where created_at < ${beforeMs}`).count;
    },
  };
}
