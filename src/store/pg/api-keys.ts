/** PostgreSQL implementation of the apiKeys repository (src/store/port/api-keys.ts). */
import type { ActiveKeyRef, ApiKeysRepo } from "../port/api-keys";
import type { ApiKeyRow } from "../rows";
import type { PgContext } from "./context";
import { rowOf, rowsOf, toColumns } from "./map";
import { noticePayload, NOTICE_CHANNEL } from "./notices";

/** Builds the apiKeys repository on `ctx`. */
export function apiKeysRepo(ctx: PgContext): ApiKeysRepo {
  const { sql } = ctx;
  return {
    async activeByFingerprint(fingerprint) {
      // Hot path (apikey authentication on a cache miss): the unique fingerprint index.
      const [row] =
        await sql`select id, account_id, mode from api_keys where fingerprint = ${fingerprint} and revoked_at is null`;
      if (!row) return undefined;
      // Outside a unit every read is committed; inside one the unit may still roll back.
      return { id: row.id, accountId: row.account_id, mode: row.mode, settled: !ctx.inUnit } satisfies ActiveKeyRef;
    },
    async activeInAccount(accountId, id) {
      return rowOf<ApiKeyRow>(
        await sql`select * from api_keys where id = ${id} and account_id = ${accountId} and revoked_at is null`,
      );
    },
    async listActive(accountId) {
      return rowsOf<ApiKeyRow>(
        await sql`select * from api_keys where account_id = ${accountId} and revoked_at is null order by created_at desc, id desc`,
      );
    },
    async insert(row) {
      await sql`insert into api_keys ${sql(toColumns(row))}`;
    },
    async revoke(accountId, id, now) {
      // Every instance caches resolved keys: the notice makes them forget once this unit commits.
      const r =
        await sql`with u as (update api_keys set revoked_at = ${now} where id = ${id} and account_id = ${accountId} and revoked_at is null returning 1)
        select pg_notify(${NOTICE_CHANNEL}, ${noticePayload("api_keys")}) from u`;
      return r.length === 1;
    },
  };
}
