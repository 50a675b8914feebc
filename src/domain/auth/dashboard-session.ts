/**
 * Dashboard browser sessions (extensions.md "Merchant dashboard", issue 15): an opaque session
 * value `<jti>.<mac>` for an HttpOnly cookie plus a session-bound CSRF token. Both are HMAC-SHA256
 * of the jti under the database's dashboard signing key (tokens.ts `signingKey`), with distinct
 * labels, so neither can be derived from the other. The session lives in the same `sessions`
 * table as bearer tokens: logout (revokeSession) ends it at once, and the user's current role is
 * read on every request. Verification is one MAC and one read of the session (a prepared statement).
 *
 * CSRF choice: a session-bound (synchronizer) token rather than a double-submit cookie. It needs
 * no second cookie, cannot be planted by a sibling subdomain writing cookies, and dies with the
 * session. The dashboard reads it from the login answer or `GET /v1/auth/session` (a cross-origin
 * page cannot read those answers: no CORS).
 */
import { hmacBase64, safeEqual } from "../../lib/crypto";
import { rawId } from "../../lib/ids";
import type { Role } from "../accounts/roles";
import { recordSession, signingKey, TOKEN_TTL_SECONDS, type AuthDeps } from "./tokens";

/** A signed-in dashboard user. `role` is the user's current role. */
export interface DashboardSession {
  accountId: string;
  userId: string;
  role: Role;
  jti: string;
}

const VALUE_SHAPE = /^([A-Za-z0-9_-]{10,64})\.([A-Za-z0-9_-]{43})$/;

const mac = (key: Uint8Array, label: string, jti: string) =>
  hmacBase64(key, `${label}:${jti}`).replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_");

/** The CSRF token of session `jti` (43 base64url characters); stable for the session's life. */
export async function csrfTokenFor(deps: AuthDeps, jti: string): Promise<string> {
  return mac(await signingKey(deps), "csrf", jti);
}

/** True when `sent` is the CSRF token of session `jti` (constant-time). */
export async function csrfMatches(deps: AuthDeps, jti: string, sent: string | null): Promise<boolean> {
  return !!sent && safeEqual(sent, await csrfTokenFor(deps, jti));
}

/**
 * Opens a session for `user` (12 hours, like a bearer token). Returns the cookie value, the CSRF
 * token and the lifetime in seconds.
 */
export async function openDashboardSession(
  deps: AuthDeps,
  user: { id: string; accountId: string },
): Promise<{ value: string; csrfToken: string; expiresIn: number; jti: string }> {
  const now = deps.clock.nowMs();
  const jti = rawId();
  const key = await signingKey(deps);
  await recordSession(deps, now, {
    jti,
    accountId: user.accountId,
    userId: user.id,
    expiresAt: now + TOKEN_TTL_SECONDS * 1000,
  });
  return {
    value: `${jti}.${mac(key, "session", jti)}`,
    csrfToken: mac(key, "csrf", jti),
    expiresIn: TOKEN_TTL_SECONDS,
    jti,
  };
}

/**
 * The session of a cookie value, or null when it is malformed, badly signed, expired, logged
 * out, or its user left the account.
 */
export async function verifyDashboardSession(deps: AuthDeps, value: string): Promise<DashboardSession | null> {
  const m = VALUE_SHAPE.exec(value);
  if (!m) return null;
  const jti = m[1]!;
  if (!safeEqual(m[2]!, mac(await signingKey(deps), "session", jti))) return null;
  const row = await deps.store.read.auth.liveSession(jti);
  if (!row || row.expiresAt <= deps.clock.nowMs() || row.userAccount !== row.accountId) return null;
  return { accountId: row.accountId, userId: row.userId, role: row.role as Role, jti };
}
