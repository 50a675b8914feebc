/** API key rows: lookups by fingerprint (drizzle only). */
import { and, eq, isNull } from "drizzle-orm";
import { apiKeys } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** The active (not revoked) key with this fingerprint, or undefined. */
export function findActiveKeyByFingerprint(db: DbOrTx, fingerprint: string): ApiKeyRow | undefined {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.fingerprint, fingerprint), isNull(apiKeys.revokedAt)))
    .get();
}
