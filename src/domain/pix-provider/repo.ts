/** drizzle queries of Pix provider connections (db/schema/pix-provider.ts). Active = not deleted. */
import { and, eq, isNull } from "drizzle-orm";
import { pixProviderConnections } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";

export type ConnectionRow = typeof pixProviderConnections.$inferSelect;
export type ConnectionInsert = typeof pixProviderConnections.$inferInsert;

/** The account's active connection, or undefined. */
export function findActiveByAccount(db: DbOrTx, accountId: string): ConnectionRow | undefined {
  return db
    .select()
    .from(pixProviderConnections)
    .where(and(eq(pixProviderConnections.accountId, accountId), isNull(pixProviderConnections.deletedAt)))
    .get();
}

/** A connection by id, deleted or not (charges created through it keep settling). */
export function findConnection(db: DbOrTx, id: string): ConnectionRow | undefined {
  return db.select().from(pixProviderConnections).where(eq(pixProviderConnections.id, id)).get();
}

/** Every active connection (the daily certificate check). */
export function listActive(db: DbOrTx): ConnectionRow[] {
  return db.select().from(pixProviderConnections).where(isNull(pixProviderConnections.deletedAt)).all();
}

/**
 * Makes `row` the account's one active connection (call inside a transaction): any other active
 * connection of the account is marked deleted at `row.updatedAt`, then `row` is inserted, or
 * replaces the stored row of the same id (its `createdAt` kept).
 */
export function saveActive(t: DbOrTx, row: ConnectionInsert): void {
  const other = findActiveByAccount(t, row.accountId);
  if (other && other.id !== row.id) markDeleted(t, other.id, row.updatedAt);
  const { id, createdAt: _created, ...changes } = row;
  if (findConnection(t, id)) t.update(pixProviderConnections).set({ ...changes, deletedAt: null }).where(eq(pixProviderConnections.id, id)).run();
  else t.insert(pixProviderConnections).values(row).run();
}

/** Marks a connection deleted at `at` (epoch ms). */
export function markDeleted(t: DbOrTx, id: string, at: number): void {
  t.update(pixProviderConnections).set({ deletedAt: at, updatedAt: at }).where(eq(pixProviderConnections.id, id)).run();
}
