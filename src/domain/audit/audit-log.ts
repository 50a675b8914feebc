/**
 * The audit log of API key operations (interface.md "Authentication" 9): issue, rotate and revoke,
 * each with the acting user's id and the key fingerprint. Written in the same transaction as the
 * key change, so an entry exists exactly when the change committed.
 * Also every successful state-changing dashboard-session request (issue 15): action
 * `dashboard.request`, with the method and path in `key_id` and the status in `key_fingerprint`
 * (the table's columns are key-shaped; written right after the response, see src/app.ts).
 */
import { and, asc, desc, eq } from "drizzle-orm";
import { auditLog } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";
import { newId } from "../../lib/ids";

export type AuditAction = "api_key.issued" | "api_key.rotated" | "api_key.revoked" | "dashboard.request";
export type AuditEntry = typeof auditLog.$inferSelect;

export interface AuditInput {
  accountId: string;
  actorUserId: string;
  action: AuditAction;
  /** The key issued or revoked; for rotate, the new key. */
  keyId: string;
  keyFingerprint: string;
  /** Rotate only: the key that was revoked. */
  previousKeyId?: string;
  previousKeyFingerprint?: string;
  /** Epoch ms. */
  at: number;
}

/** Appends one entry (call inside the transaction of the key change). */
export function recordAudit(t: DbOrTx, e: AuditInput): void {
  t.insert(auditLog)
    .values({
      id: newId("auditLog"),
      accountId: e.accountId,
      actorUserId: e.actorUserId,
      action: e.action,
      keyId: e.keyId,
      keyFingerprint: e.keyFingerprint,
      previousKeyId: e.previousKeyId ?? null,
      previousKeyFingerprint: e.previousKeyFingerprint ?? null,
      createdAt: e.at,
    })
    .run();
}

/** Entries of `accountId`, oldest first (optionally one action only). */
export function listAuditEntries(db: DbOrTx, accountId: string, action?: AuditAction): AuditEntry[] {
  return db
    .select()
    .from(auditLog)
    .where(action ? and(eq(auditLog.accountId, accountId), eq(auditLog.action, action)) : eq(auditLog.accountId, accountId))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id))
    .all();
}

/**
 * Records a successful state-changing dashboard request of `actorUserId`: `what` is
 * `"<METHOD> <path>"` (e.g. `POST /v1/payments/pay_1/refunds`), `status` the HTTP status. `at`: epoch ms.
 */
export function recordDashboardAction(t: DbOrTx, e: { accountId: string; actorUserId: string; what: string; status: number; at: number }): void {
  recordAudit(t, { accountId: e.accountId, actorUserId: e.actorUserId, action: "dashboard.request", keyId: e.what.slice(0, 500), keyFingerprint: String(e.status), at: e.at });
}

/** The newest `limit` entries of `accountId`, newest first (the dashboard's audit page). */
export function latestAuditEntries(db: DbOrTx, accountId: string, limit: number): AuditEntry[] {
  return db.select().from(auditLog).where(eq(auditLog.accountId, accountId)).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit).all();
}
