/**
 * The account's audit log (interface.md "Authentication" 9; issue 15): API key issue, rotate and
 * revoke (`target` = key id, plus the key columns), written in the key change's unit of work; and
 * every successful state-changing dashboard-session request (`dashboard.request`: `target` =
 * `"<METHOD> <path>"`, `status`, `detail` = `{"mode","request_id"}`).
 * Dashboard requests are recorded by one response hook (src/app.ts) rather than inside each
 * route's business unit: dozens of routes in other modules would each need the session's user
 * threaded into their service. The hook's unit is durable before the answer leaves, like the
 * request's own writes (`store.durable()`, src/store/port.ts); when making them durable fails the
 * request answers 500.
 */
import type { Deps } from "../deps";
import { newId } from "../../lib/ids";
import type { Uow } from "../../store/port";
import type { AuditLogRow, NewAuditLogRow } from "../../store/rows";

export type AuditAction =
  | "api_key.issued"
  | "api_key.rotated"
  | "api_key.revoked"
  | "dashboard.request"
  | "member.role_changed"
  | "member.removed"
  /** src/domain/payouts/destinations.ts: target the `pd_` id. */
  | "payout_destination.created"
  | "payout_destination.deleted";
/** One stored entry (`createdAt` epoch ms; `detail` JSON text or null). */
export type AuditEntry = AuditLogRow;

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

/** Appends one key entry; call it inside the unit of work of the key change. */
export function recordAudit(uow: Uow, e: AuditInput): Promise<void> {
  return uow.audit.append({
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
  });
}

/** A dashboard request to record (see `recordDashboardAction`). */
export interface DashboardAction {
  accountId: string;
  actorUserId: string;
  what: string;
  status: number;
  mode: "test" | "live" | null;
  requestId: string;
  /** Epoch ms. */
  at: number;
}

/**
 * Records a successful state-changing dashboard request of `actorUserId`: `what` is
 * `"<METHOD> <path>"` (e.g. `POST /v1/payments/pay_1/refund`, cut at 500 characters), `status` the
 * HTTP status, `mode` the session's mode (null on account routes, which have none), `requestId` the `X-Request-Id`
 * answered. `at`: epoch ms.
 */
export function recordDashboardAction(uow: Uow, e: DashboardAction): Promise<void> {
  const entry: NewAuditLogRow = {
    id: newId("auditLog"),
    accountId: e.accountId,
    actorUserId: e.actorUserId,
    action: "dashboard.request",
    target: e.what.slice(0, 500),
    status: e.status,
    detail: JSON.stringify({ mode: e.mode, request_id: e.requestId }),
    createdAt: e.at,
  };
  return uow.audit.append(entry);
}

/**
 * Records a dashboard request in a unit of work of its own (the app's response hook, src/app.ts,
 * which answers once it is durable, like the request's writes).
 * Call it outside any unit of work.
 */
export function auditDashboardRequest(deps: Pick<Deps, "store">, e: DashboardAction): Promise<void> {
  return deps.store.tx((uow) => recordDashboardAction(uow, e));
}

/**
 * Records a member change (call inside its unit of work): `member.role_changed` with detail
 * `{email, from, to}` or `member.removed` with detail `{email, role}`; `target` = the member's user id.
 * `at`: epoch ms.
 */
export function recordMemberAction(
  uow: Uow,
  e: {
    accountId: string;
    actorUserId: string;
    action: "member.role_changed" | "member.removed";
    userId: string;
    detail: Record<string, string>;
    at: number;
  },
): Promise<void> {
  return uow.audit.append({
    id: newId("auditLog"),
    accountId: e.accountId,
    actorUserId: e.actorUserId,
    action: e.action,
    target: e.userId,
    detail: JSON.stringify(e.detail),
    createdAt: e.at,
  });
}

/** The newest `limit` entries of `accountId`, newest first (the dashboard's audit page). */
export function latestAuditEntries(deps: Pick<Deps, "store">, accountId: string, limit: number): Promise<AuditEntry[]> {
  return deps.store.read.audit.latest(accountId, limit);
}
