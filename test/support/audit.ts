/** Reads the audit log straight from the database, for assertions (tests may read tables directly). */
import { and, asc, eq } from "drizzle-orm";
import { auditLog } from "../../db/schema";
import type { DbOrTx } from "../../src/db/client";
import type { AuditAction, AuditEntry } from "../../src/domain/audit/audit-log";

/** Entries of `accountId`, oldest first (optionally one action only). */
export function listAuditEntries(db: DbOrTx, accountId: string, action?: AuditAction): AuditEntry[] {
  return db
    .select()
    .from(auditLog)
    .where(action ? and(eq(auditLog.accountId, accountId), eq(auditLog.action, action)) : eq(auditLog.accountId, accountId))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id))
    .all();
}
