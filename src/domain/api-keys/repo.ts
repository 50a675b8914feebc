/** API key rows (drizzle only). Only the SHA-256 fingerprint and a display prefix are stored. */
import type { Statement } from "bun:sqlite";
import { and, desc, eq, isNull } from "drizzle-orm";
import { apiKeys } from "../../../db/schema";
import type { Db, DbOrTx } from "../../db/client";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

function prepareLookup(db: Db): Statement {
  return db.$client.prepare(`select id, account_id as "accountId", mode from api_keys where fingerprint = ? and revoked_at is null`);
}
const lookups = new WeakMap<Db, Statement>();

/**
 * Lookup for apikey authentication by fingerprint: a prepared statement per database. Called on
 * a miss of the key cache (cache.ts `resolveApiKey`), not directly by the HTTP layer.
 */
export function lookupActiveKey(db: Db, fingerprint: string): { id: string; accountId: string; mode: string } | undefined {
  let q = lookups.get(db);
  if (!q) lookups.set(db, (q = prepareLookup(db)));
  return (q.get(fingerprint) as { id: string; accountId: string; mode: string } | null) ?? undefined;
}

/** The active key `id` of `accountId`, or undefined (other account, revoked or unknown). */
export function findActiveKeyInAccount(db: DbOrTx, accountId: string, id: string): ApiKeyRow | undefined {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .get();
}

/** Active keys of `accountId`, newest first. */
export function listActiveKeys(db: DbOrTx, accountId: string): ApiKeyRow[] {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .all();
}

/** Inserts a key row. Callers clear the key cache (cache.ts `invalidateApiKeyCache`) in the same call. */
export function insertKey(db: DbOrTx, row: typeof apiKeys.$inferInsert): void {
  db.insert(apiKeys).values(row).run();
}

/**
 * Marks key `id` of `accountId` revoked at `now`; returns true when it was active. Callers MUST
 * clear the key cache (cache.ts `invalidateApiKeyCache(db)`) in the same call, or the key keeps
 * authenticating from memory.
 */
export function markRevoked(db: DbOrTx, accountId: string, id: string, now: number): boolean {
  const r = db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .run() as unknown as { changes: number };
  return r.changes === 1;
}
