/** Account and user rows (drizzle only). */
import { and, asc, count, eq, isNull } from "drizzle-orm";
import { accounts, sessions, users } from "../../../db/schema";
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

/** Number of OWNER members of `accountId`. */
export function countOwners(db: DbOrTx, accountId: string): number {
  return db.select({ n: count() }).from(users).where(and(eq(users.accountId, accountId), eq(users.role, "OWNER"))).get()?.n ?? 0;
}

/** Sets the role of user `id`. */
export function updateUserRole(db: DbOrTx, id: string, role: string): void {
  db.update(users).set({ role }).where(eq(users.id, id)).run();
}

/** Deletes user `id` and revokes every live session (bearer token or dashboard cookie) of theirs at `now` (epoch ms). */
export function deleteUserAndSessions(db: DbOrTx, id: string, now: number): void {
  db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, id), isNull(sessions.revokedAt))).run();
  db.delete(users).where(eq(users.id, id)).run();
}
