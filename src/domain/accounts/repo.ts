/** Account and user rows (drizzle only). */
import { asc, count, eq } from "drizzle-orm";
import { accounts, users } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";

export type AccountRow = typeof accounts.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export function findAccount(db: DbOrTx, id: string): AccountRow | undefined {
  return db.select().from(accounts).where(eq(accounts.id, id)).get();
}

/** The user with this (already normalized) email, in any account. */
export function findUserByEmail(db: DbOrTx, email: string): UserRow | undefined {
  return db.select().from(users).where(eq(users.email, email)).get();
}

export function insertAccount(db: DbOrTx, row: typeof accounts.$inferInsert): void {
  db.insert(accounts).values(row).run();
}

export function insertUser(db: DbOrTx, row: typeof users.$inferInsert): void {
  db.insert(users).values(row).run();
}

/** Number of accounts in the database (0 on a fresh install). */
export function countAccounts(db: DbOrTx): number {
  return db.select({ n: count() }).from(accounts).get()?.n ?? 0;
}

/** The user with this id, in any account. */
export function findUser(db: DbOrTx, id: string): UserRow | undefined {
  return db.select().from(users).where(eq(users.id, id)).get();
}

/** The members of an account, oldest first. */
export function listUsers(db: DbOrTx, accountId: string): UserRow[] {
  return db.select().from(users).where(eq(users.accountId, accountId)).orderBy(asc(users.createdAt), asc(users.id)).all();
}
