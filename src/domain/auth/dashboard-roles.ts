/**
 * What each member role may do through a dashboard session on the API routes (issue 15, "Sessions";
 * interface.md "Authentication" 5): every role reads; `VIEWER` changes nothing; `DEVELOPER` manages
 * webhooks (endpoints, secrets, delivery retries, and `POST /v1/payments/{id}/resend-webhook`,
 * which re-sends a status and moves no money) but moves no money and manages no keys or
 * members; `OWNER` and `ADMIN` do everything. Key and member management keep their own check
 * (api-keys/service `requireManager`).
 */
import type { Role } from "../accounts/roles";
import { DomainError } from "../errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Path prefixes a DEVELOPER may change (webhook configuration only). */
const DEVELOPER_WRITES = ["/v1/webhooks/"];
/** POST paths a DEVELOPER may send outside DEVELOPER_WRITES: webhook re-sends, which move no money. */
const DEVELOPER_POSTS = /^\/v1\/payments\/[^/]+\/resend-webhook$/;

/** True when `method` changes nothing (GET, HEAD, OPTIONS). */
export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method);
}

/** True when `role` may send `method` to `path` (a pathname) through a dashboard session. */
export function roleMay(role: Role, method: string, path: string): boolean {
  if (isSafeMethod(method) || role === "OWNER" || role === "ADMIN") return true;
  if (role === "DEVELOPER")
    return DEVELOPER_WRITES.some((p) => path.startsWith(p)) || (method === "POST" && DEVELOPER_POSTS.test(path));
  return false;
}

/** Throws 403 `role_forbidden` unless roleMay(role, method, path). */
export function requireRole(role: Role, method: string, path: string): void {
  if (!roleMay(role, method, path))
    throw new DomainError(
      "role_forbidden",
      role === "VIEWER" ? "A VIEWER may only read." : `The ${role} role may not do this; ask an OWNER or ADMIN.`,
    );
}
