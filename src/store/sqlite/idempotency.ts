/** SQLite implementation of the idempotency repository (src/store/port/idempotency.ts). */
import type { IdempotencyRecord, IdempotencyRepo } from "../port/idempotency";
import type { SqliteContext } from "./context";

// Hot path of every idempotent create (find, then complete): prepared once per connection.
const FIND =
  "select id, request_hash as requestHash, state, response_status as responseStatus, response_body as responseBody, locked_until as lockedUntil from idempotency_keys where account_id = ? and livemode = ? and scope = ? and key = ?";
const COMPLETE = `insert into idempotency_keys (id, account_id, livemode, scope, key, request_hash, state, response_status, response_body, locked_until, created_at)
       values (?, ?, ?, ?, ?, ?, 'completed', ?, ?, null, ?)
       on conflict (account_id, livemode, scope, key) do update set
         state = 'completed', response_status = excluded.response_status, response_body = excluded.response_body, locked_until = null`;
const RELEASE = "delete from idempotency_keys where id = ? and state = 'in_progress'";
const PRUNE = "delete from idempotency_keys where created_at < ?";

/** Builds the idempotency repository on the adapter's connection `ctx`. */
export function idempotencyRepo(ctx: SqliteContext): IdempotencyRepo {
  return {
    async find(accountId, livemode, scope, key) {
      return ctx.stmt(FIND).get(accountId, livemode ? 1 : 0, scope, key) as IdempotencyRecord | null;
    },
    async complete(r, responseStatus, responseBody) {
      ctx
        .stmt(COMPLETE)
        .run(
          r.id,
          r.accountId,
          r.livemode ? 1 : 0,
          r.scope,
          r.key,
          r.requestHash,
          responseStatus,
          responseBody,
          r.createdAt,
        );
    },
    async releaseInProgress(id) {
      ctx.stmt(RELEASE).run(id);
    },
    async pruneBefore(beforeMs) {
      return ctx.stmt(PRUNE).run(beforeMs).changes;
    },
  };
}
