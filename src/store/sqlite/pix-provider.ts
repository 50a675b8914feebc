/**
 * SQLite implementation of the pixProvider repository (src/store/port/pix-provider.ts), plus the registry's synchronous
 * lookups.
 */
import { eq, isNull } from "drizzle-orm";
import { pixProviderConnections } from "../../../db/schema";
import type { PixProviderConnectionRow } from "../rows";
import type { LiveConnectionReads, PixProviderRepo } from "../port/pix-provider";
import type { SqliteContext } from "./context";
import { rawRows } from "./raw-rows";

const CONN = rawRows<PixProviderConnectionRow>(pixProviderConnections, "pix_provider_connections");
/** The account's active connection (one at most: index pix_provider_connections_account_uq). */
const CONN_ACTIVE = `${CONN.select} where account_id = ? and deleted_at is null`;
const CONN_BY_ID = `${CONN.select} where id = ?`;

/**
 * The connection reads of the provider registry (src/domain/providers/registry.ts), which is synchronous
 * and is consulted inside units of work (a refund request picks its provider there): on this
 * single connection a plain read sees the unit's own writes, as before the port. (PostgreSQL
 * keeps every connection in memory instead: src/store/pg/connection-cache.ts.)
 */
export function liveConnectionReads(ctx: SqliteContext): LiveConnectionReads {
  // Raw statements prepared once (CONVENTIONS.md "Hot paths"): every live charge or payout create
  // and every step of a live payout's job looks its connection up (the builder: ~0.15 ms each).
  return {
    activeByAccount: (accountId) => CONN.row(ctx.stmt(CONN_ACTIVE).get(accountId)),
    byId: (id) => CONN.row(ctx.stmt(CONN_BY_ID).get(id)),
  };
}

/** Builds the pixProvider repository on the adapter's connection `ctx`. */
export function pixProviderRepo(ctx: SqliteContext): PixProviderRepo {
  const db = ctx.db;
  const reads = liveConnectionReads(ctx);
  const markDeleted = (id: string, at: number) =>
    void db
      .update(pixProviderConnections)
      .set({ deletedAt: at, updatedAt: at })
      .where(eq(pixProviderConnections.id, id))
      .run();
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
      if (reads.byId(id))
        db.update(pixProviderConnections)
          .set({ ...changes, deletedAt: null })
          .where(eq(pixProviderConnections.id, id))
          .run();
      else db.insert(pixProviderConnections).values(row).run();
    },
    async markDeleted(id, at) {
      markDeleted(id, at);
    },
  };
}
