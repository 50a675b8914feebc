/** PostgreSQL implementation of the auth repository (src/store/port/auth.ts): sessions and service secrets. */
import type { AuthRepo, LiveSession } from "../port/auth";
import type { PgContext } from "./context";
import { rowOf, toColumns } from "./map";

/** Builds the auth repository on `ctx`. */
export function authRepo(ctx: PgContext): AuthRepo {
  const { sql } = ctx;
  return {
    async ensureServiceSecret(name, value, now) {
      // First writer wins, also between instances starting together.
      const [row] = await sql`with ins as (
          insert into service_secrets (name, value, created_at) values (${name}, ${value}, ${now}) on conflict (name) do nothing returning value)
        select value from ins union all select value from service_secrets where name = ${name} limit 1`;
      if (row) return row.value as string;
      // The conflicting row was committed after this statement's snapshot: read it now.
      const [again] = await sql`select value from service_secrets where name = ${name}`;
      return again!.value as string;
    },
    async recordSession(row) {
      await sql`with gone as (delete from sessions where expires_at < ${row.issuedAt}) insert into sessions ${sql(toColumns(row))}`;
    },
    async liveSession(jti) {
      // Hot path (every bearer or dashboard-cookie request): the session by primary key, with its user.
      return rowOf<LiveSession>(
        await sql`select s.account_id, s.user_id, s.expires_at, u.role, u.account_id as user_account
          from sessions s join users u on u.id = s.user_id where s.jti = ${jti} and s.revoked_at is null`,
      );
    },
    async revokeSession(jti, now) {
      await sql`update sessions set revoked_at = ${now} where jti = ${jti} and revoked_at is null`;
    },
  };
}
