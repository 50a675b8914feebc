/** GET /v1/account/audit-log: the newest audit entries as an allowlist view (issue 15, Developers page). */
import { DateTime, JsonObject, Nullable, Type, View, type Static } from "../../lib/view-schema";
import type { AuditEntry } from "./audit-log";

export const AuditEntrySchema = View("AuditEntry", {
  id: Type.String(),
  action: Type.String({
    description:
      "api_key.issued | api_key.rotated | api_key.revoked | dashboard.request | member.role_changed | member.removed | payout_destination.created | payout_destination.deleted",
  }),
  actor_user_id: Type.String(),
  target: Nullable(
    Type.String({
      description:
        "The key id (api_key.*), the method and path (dashboard.request), or the member's user id (member.*).",
    }),
  ),
  status: Nullable(Type.Integer({ description: "dashboard.request: the HTTP status answered; null otherwise." })),
  detail: Nullable(
    JsonObject({
      description:
        "dashboard.request: `{mode, request_id}` (mode `test`, `live`, or null on account routes); member.role_changed: `{email, from, to}`; member.removed: `{email, role}`; null otherwise.",
      examples: [{ mode: "test", request_id: "req_1" }],
    }),
  ),
  key_fingerprint: Nullable(
    Type.String({ description: "api_key.*: the fingerprint of the key in `target`; null otherwise." }),
  ),
  previous_key_id: Nullable(Type.String({ description: "api_key.rotated: the revoked key; null otherwise." })),
  created_at: DateTime(),
});
export const AuditListSchema = View("AuditList", { data: Type.Array(AuditEntrySchema) });

/** One entry: `{id, action, actor_user_id, target, status, detail, key_fingerprint, previous_key_id, created_at}`. */
export function auditEntryView(e: AuditEntry): Static<typeof AuditEntrySchema> {
  return {
    id: e.id,
    action: e.action,
    actor_user_id: e.actorUserId,
    target: e.target,
    status: e.status,
    detail: e.detail === null ? null : (JSON.parse(e.detail) as Record<string, unknown>),
    key_fingerprint: e.keyFingerprint,
    previous_key_id: e.previousKeyId,
    created_at: new Date(e.createdAt).toISOString(),
  };
}
