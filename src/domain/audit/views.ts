/** GET /v1/account/audit-log: the newest audit entries as an allowlist view (issue 15, Developers page). */
import { DateTime, Nullable, Type, View, type Static } from "../../lib/view-schema";
import type { AuditEntry } from "./audit-log";

export const AuditEntrySchema = View("AuditEntry", {
  id: Type.String(),
  action: Type.String({ description: "api_key.issued | api_key.rotated | api_key.revoked | dashboard.request" }),
  actor_user_id: Type.String(),
  target: Type.String({ description: "The key id, or for dashboard.request the method and path." }),
  detail: Type.String({ description: "The key fingerprint, or for dashboard.request the HTTP status." }),
  previous_key_id: Nullable(Type.String()),
  created_at: DateTime(),
});
export const AuditListSchema = View("AuditList", { data: Type.Array(AuditEntrySchema) });

/** One entry: `{id, action, actor_user_id, target, detail, previous_key_id, created_at}`. */
export function auditEntryView(e: AuditEntry): Static<typeof AuditEntrySchema> {
  return { id: e.id, action: e.action, actor_user_id: e.actorUserId, target: e.keyId, detail: e.keyFingerprint, previous_key_id: e.previousKeyId, created_at: new Date(e.createdAt).toISOString() };
}
