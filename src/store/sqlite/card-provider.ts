/**
 * SQLite implementation of the cardProvider repository (src/store/port/card-provider.ts), plus the registry's
 * synchronous lookups.
 */
import { and, eq, isNull } from "drizzle-orm";
import { cardProviderConnections, cardProviderEvents } from "../../../db/schema";
import type { CardProviderRepo, LiveCardConnectionReads } from "../port/card-provider";
import type { SqliteContext } from "./context";

/**
 * The card connection reads of the provider registry (synchronous, consulted inside units of
 * work): on this single connection a plain read sees the unit's own writes.
 */
export function liveCardConnectionReads(ctx: SqliteContext): LiveCardConnectionReads {
  const db = ctx.db;
  return {
    activeByAccount: (accountId) =>
      db
        .select()
        .from(cardProviderConnections)
        .where(and(eq(cardProviderConnections.accountId, accountId), isNull(cardProviderConnections.deletedAt)))
        .get(),
    byId: (id) => db.select().from(cardProviderConnections).where(eq(cardProviderConnections.id, id)).get(),
  };
}

/** Builds the cardProvider repository on the adapter's connection `ctx`. */
export function cardProviderRepo(ctx: SqliteContext): CardProviderRepo {
  const db = ctx.db;
  const reads = liveCardConnectionReads(ctx);
  const markDeleted = (id: string, at: number) =>
    void db
      .update(cardProviderConnections)
      .set({ deletedAt: at, updatedAt: at })
      .where(eq(cardProviderConnections.id, id))
      .run();
  return {
    async activeByAccount(accountId) {
      return reads.activeByAccount(accountId);
    },
    async byId(id) {
      return reads.byId(id);
    },
    async listActive() {
      return db.select().from(cardProviderConnections).where(isNull(cardProviderConnections.deletedAt)).all();
    },
    async saveActive(row) {
      const other = reads.activeByAccount(row.accountId);
      if (other && other.id !== row.id) markDeleted(other.id, row.updatedAt);
      const { id, createdAt: _created, ...changes } = row;
      if (reads.byId(id))
        db.update(cardProviderConnections)
          .set({ ...changes, deletedAt: null })
          .where(eq(cardProviderConnections.id, id))
          .run();
      else db.insert(cardProviderConnections).values(row).run();
    },
    async markDeleted(id, at) {
      markDeleted(id, at);
    },
    async setEventsSeenUntil(id, seconds) {
      db.update(cardProviderConnections)
        .set({ eventsSeenUntil: seconds })
        .where(eq(cardProviderConnections.id, id))
        .run();
    },
    async recordEvent(connectionId, eventId, type, at) {
      const r = db
        .insert(cardProviderEvents)
        .values({ connectionId, eventId, type, receivedAt: at })
        .onConflictDoNothing()
        .run() as unknown as { changes: number };
      return r.changes > 0;
    },
  };
}
