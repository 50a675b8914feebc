/**
 * PostgreSQL implementation of the accounts repository (src/store/port/accounts.ts): accounts, their settings and
 * members.
 */
import type { AccountsRepo } from "../port/accounts";
import type { AccountRow, UserRow } from "../rows";
import type { PgContext } from "./context";
import { numberOf, rowOf, rowsOf, toColumns } from "./map";
import { noticePayload, NOTICE_CHANNEL } from "./notices";

/** Builds the accounts repository on `ctx`. */
export function accountsRepo(ctx: PgContext): AccountsRepo {
  const { sql } = ctx;
  return {
    async byId(id) {
      return rowOf<AccountRow>(await sql`select * from accounts where id = ${id}`);
    },
    async count() {
      return numberOf(await sql`select count(*) from accounts`) ?? 0;
    },
    async insert(row) {
      await sql`insert into accounts ${sql(toColumns(row))}`;
    },
    async updateSettings(id, set) {
      const cols = toColumns(set);
      if (Object.keys(cols).length === 0) return;
      // Other instances may cache settings: the notice reaches them once this unit commits.
      await sql`with u as (update accounts set ${sql(cols)} where id = ${id} returning 1)
        select pg_notify(${NOTICE_CHANNEL}, ${noticePayload("accounts", id)}) from u`;
      ctx.afterCommit(() => ctx.shared.accounts.clear());
    },
    async userByEmail(email) {
      return rowOf<UserRow>(await sql`select * from users where email = ${email}`);
    },
    async userById(id) {
      return rowOf<UserRow>(await sql`select * from users where id = ${id}`);
    },
    async insertUser(row) {
      await sql`insert into users ${sql(toColumns(row))}`;
    },
    async listUsers(accountId) {
      return rowsOf<UserRow>(await sql`select * from users where account_id = ${accountId} order by created_at, id`);
    },
    async countOwners(accountId) {
      return numberOf(await sql`select count(*) from users where account_id = ${accountId} and role = 'OWNER'`) ?? 0;
    },
    async setUserRole(id, role) {
      await sql`update users set role = ${role} where id = ${id}`;
    },
    async removeUserAndSessions(id, now) {
      await sql`with s as (update sessions set revoked_at = ${now} where user_id = ${id} and revoked_at is null)
        delete from users where id = ${id}`;
    },
  };
}
