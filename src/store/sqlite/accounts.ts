/**
 * SQLite implementation of the accounts repository (src/store/port/accounts.ts): drizzle builder queries, off the hot
 * paths (`byId`: a raw statement).
 */
import { and, asc, count, eq, isNull } from "drizzle-orm";
import { accounts, sessions, users } from "../../../db/schema";
import type { AccountsRepo } from "../port/accounts";
import type { AccountRow } from "../rows";
import type { SqliteContext } from "./context";
import { rawRows } from "./raw-rows";

const ACCOUNT = rawRows<AccountRow>(accounts, "accounts");
const ACCOUNT_BY_ID = `${ACCOUNT.select} where id = ?`;

/** Builds the accounts repository on the adapter's connection `ctx`. */
export function accountsRepo(ctx: SqliteContext): AccountsRepo {
  const db = ctx.db;
  return {
    // A raw prepared statement: every payout and ledger posting reads its account's settings.
    async byId(id) {
      return ACCOUNT.row(ctx.stmt(ACCOUNT_BY_ID).get(id));
    },
    async count() {
      return db.select({ n: count() }).from(accounts).get()?.n ?? 0;
    },
    async insert(row) {
      db.insert(accounts).values(row).run();
    },
    async updateSettings(id, set) {
      if (Object.keys(set).length > 0) db.update(accounts).set(set).where(eq(accounts.id, id)).run();
    },
    async userByEmail(email) {
      return db.select().from(users).where(eq(users.email, email)).get();
    },
    async userById(id) {
      return db.select().from(users).where(eq(users.id, id)).get();
    },
    async insertUser(row) {
      db.insert(users).values(row).run();
    },
    async listUsers(accountId) {
      return db
        .select()
        .from(users)
        .where(eq(users.accountId, accountId))
        .orderBy(asc(users.createdAt), asc(users.id))
        .all();
    },
    async countOwners(accountId) {
      return (
        db
          .select({ n: count() })
          .from(users)
          .where(and(eq(users.accountId, accountId), eq(users.role, "OWNER")))
          .get()?.n ?? 0
      );
    },
    async setUserRole(id, role) {
      db.update(users).set({ role }).where(eq(users.id, id)).run();
    },
    async removeUserAndSessions(id, now) {
      db.update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)))
        .run();
      db.delete(users).where(eq(users.id, id)).run();
    },
  };
}
