/**
 * SQLite implementation of the apiKeys repository (src/store/port/api-keys.ts); the authentication lookup is a prepared
 * statement.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import { apiKeys } from "../../../db/schema";
import type { ActiveKeyRef, ApiKeysRepo } from "../port/api-keys";
import { committed } from "./group-commit";
import type { SqliteContext } from "./context";

/** Hot path (apikey authentication on a cache miss): by the unique fingerprint index. */
const LOOKUP = `select id, account_id as "accountId", mode from api_keys where fingerprint = ? and revoked_at is null`;

/** Builds the apiKeys repository on the adapter's connection `ctx`. */
export function apiKeysRepo(ctx: SqliteContext): ApiKeysRepo {
  const db = ctx.db;
  return {
    async activeByFingerprint(fingerprint) {
      const row = ctx.stmt(LOOKUP).get(fingerprint) as Omit<ActiveKeyRef, "settled"> | null;
      if (!row) return undefined;
      return {
        id: row.id,
        accountId: row.accountId,
        mode: row.mode,
        // Settled outside a transaction, or inside the turn's group (group-commit.ts: a failed
        // group COMMIT stops the process); not inside a transaction opened outside the store.
        settled: !ctx.client.inTransaction || committed(ctx.client) !== null,
      };
    },
    async activeInAccount(accountId, id) {
      return db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
        .get();
    },
    async listActive(accountId) {
      return db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
        .all();
    },
    async insert(row) {
      db.insert(apiKeys).values(row).run();
    },
    async revoke(accountId, id, now) {
      const r = db
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
        .run() as unknown as { changes: number };
      return r.changes === 1;
    },
  };
}
