/**
 * Reads the audit log straight from the database, for assertions (tests may read tables directly).
 * `auditEntries(deps, ...)` works on either backend; `listAuditEntries(db, ...)` takes a raw SQLite
 * handle (tests of SQLite migrations that open a database of their own).
 */
import { and, asc, eq } from "drizzle-orm";
import { auditLog } from "../../db/schema";
import type { Deps } from "../../src/deps";
import type { DbOrTx } from "../../src/store/sqlite/client";
import type { AuditAction, AuditEntry } from "../../src/domain/audit/audit-log";
import { testDb } from "./test-db";

/** Entries of `accountId`, oldest first (optionally one action only), on the SQLite handle `db`. */
export function listAuditEntries(db: DbOrTx, accountId: string, action?: AuditAction): AuditEntry[] {
  return db
    .select()
    .from(auditLog)
    .where(
      action ? and(eq(auditLog.accountId, accountId), eq(auditLog.action, action)) : eq(auditLog.accountId, accountId),
    )
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id))
    .all();
}

/** Entries of `accountId` in `deps`'s database (either backend), oldest first (optionally one action only). */
export async function auditEntries(
  deps: Pick<Deps, "store">,
  accountId: string,
  action?: AuditAction,
): Promise<AuditEntry[]> {
  const rows = await testDb(deps).all(
    `select * from audit_log where account_id = ?${action ? " and action = ?" : ""} order by created_at, id`,
    ...(action ? [accountId, action] : [accountId]),
  );
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    actorUserId: r.actor_user_id,
    action: r.action,
    target: r.target,
    status: r.status,
    detail: r.detail,
    keyId: r.key_id,
    keyFingerprint: r.key_fingerprint,
    previousKeyId: r.previous_key_id,
    previousKeyFingerprint: r.previous_key_fingerprint,
    createdAt: r.created_at,
  }));
}
