/** SQLite implementation of the pixProvider repository (src/store/port/pix-provider.ts), plus the registry's synchronous lookups. */
import { and, eq, isNull } from "drizzle-orm";
import { pixProviderConnections } from "../../../db/schema";
import type { PixProviderConnectionRow } from "../rows";
import type { LiveConnectionReads, PixProviderRepo } from "../port/pix-provider";
import type { SqliteContext } from "./context";

/**
 * The connection reads of the provider registry (src/providers/registry.ts), which is synchronous
 * and is consulted inside units of work (a refund request picks its provider there): on this
 * single connection a plain read sees the unit's own writes, as before the port. (PostgreSQL
 * keeps every connection in memory instead: src/store/pg/connection-cache.ts.)
 */
export function liveConnectionReads(ctx: SqliteContext): LiveConnectionReads {
  const db = ctx.db;
  return {
    activeByAccount: (accountId) =>
      db
        .select()
        .from(pixProviderConnections)
        .where(and(eq(pixProviderConnections.accountId, accountId), isNull(pixProviderConnections.deletedAt)))
        .get(),
    byId: (id) => db.select().from(pixProviderConnections).where(eq(pixProviderConnections.id, id)).get(),
  };
}

/** Builds the pixProvider repository on the adapter's connection `ctx`. */
export function pixProviderRepo(ctx: SqliteContext): PixProviderRepo {
  const db = ctx.db;
  const reads = liveConnectionReads(ctx);
  const markDeleted = (id: string, at: number) =>
    void db.update(pixProviderConnections).set({ deletedAt: at, updatedAt: at }).where(eq(pixProviderConnections.id, id)).run();
  return {
    async activeByAccount(accountId) {
      return reads.activeByAccount(accountId);
    },
    async byId(id) {
      return reads.byId(id);
    },
    async listActive() {
      return db.select().from(pixProviderConnections).where(isNull(pixProviderConnections.deletedAt)).all();
    },
    async saveActive(row) {
      const other = reads.activeByAccount(row.accountId);
      if (other && other.id !== row.id) markDeleted(other.id, row.updatedAt);
      const { id, createdAt: _created, ...changes } = row;
      if (reads.byId(id)) db.update(pixProviderConnections).set({ ...changes, deletedAt: null }).where(eq(pixProviderConnections.id, id)).run();
      else db.insert(pixProviderConnections).values(row).run();
    },
    async markDeleted(id, at) {
      markDeleted(id, at);
    },
  };
}
