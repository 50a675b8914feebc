/**
 * The account's audit log (interface.md "Authentication" 9; issue 15): API key issue, rotate and
 * revoke (`target` = key id, plus the key columns), written in the key change's transaction; and
 * every successful state-changing dashboard-session request (`dashboard.request`: `target` =
 * `"<METHOD> <path>"`, `status`, `detail` = `{"mode","request_id"}`).
 * Dashboard requests are recorded by one response hook (src/app.ts) rather than inside each
 * route's business transaction: dozens of routes in other modules would each need the session's
 * user threaded into their service. Under `serve` the hook runs inside the turn's group
 * transaction (src/db/group-commit.ts), so the entry commits with the write and before the answer
 * leaves; a request whose write committed but whose group COMMIT failed answers 500 and keeps none.
 */
import { and, asc, desc, eq } from "drizzle-orm";
import { auditLog } from "../../../db/schema";
import type { DbOrTx } from "../../db/client";
import { newId } from "../../lib/ids";

export type AuditAction = "api_key.issued" | "api_key.rotated" | "api_key.revoked" | "dashboard.request" | "member.role_changed" | "member.removed";
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
      target: e.keyId,
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
 * `"<METHOD> <path>"` (e.g. `POST /v1/payments/pay_1/refund`, cut at 500 characters), `status` the
 * HTTP status, `mode` the session's mode (null on account routes, which have none), `requestId` the `X-Request-Id` answered. `at`: epoch ms.
 */
export function recordDashboardAction(
  t: DbOrTx,
  e: { accountId: string; actorUserId: string; what: string; status: number; mode: "test" | "live" | null; requestId: string; at: number },
): void {
  t.insert(auditLog)
    .values({
      id: newId("auditLog"),
      accountId: e.accountId,
      actorUserId: e.actorUserId,
      action: "dashboard.request",
      target: e.what.slice(0, 500),
      status: e.status,
      detail: JSON.stringify({ mode: e.mode, request_id: e.requestId }),
      createdAt: e.at,
    })
    .run();
}

/**
 * Records a member change (call inside its transaction): `member.role_changed` with detail
 * `{email, from, to}` or `member.removed` with detail `{email, role}`; `target` = the member's user id.
 * `at`: epoch ms.
 */
export function recordMemberAction(
  t: DbOrTx,
  e: { accountId: string; actorUserId: string; action: "member.role_changed" | "member.removed"; userId: string; detail: Record<string, string>; at: number },
): void {
  t.insert(auditLog)
    .values({ id: newId("auditLog"), accountId: e.accountId, actorUserId: e.actorUserId, action: e.action, target: e.userId, detail: JSON.stringify(e.detail), createdAt: e.at })
    .run();
}

/** The newest `limit` entries of `accountId`, newest first (the dashboard's audit page). */
export function latestAuditEntries(db: DbOrTx, accountId: string, limit: number): AuditEntry[] {
  return db.select().from(auditLog).where(eq(auditLog.accountId, accountId)).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(limit).all();
}
