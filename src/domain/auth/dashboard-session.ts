/**
 * Dashboard browser sessions (extensions.md "Merchant dashboard", issue 15): an opaque session
 * value `<jti>.<mac>` for an HttpOnly cookie plus a session-bound CSRF token. Both are HMAC-SHA256
 * of the jti under the database's dashboard signing key (tokens.ts `signingKey`), with distinct
 * labels, so neither can be derived from the other. The session lives in the same `sessions`
 * table as bearer tokens: logout (revokeSession) ends it at once, and the user's current role is
 * read on every request. Verification is synchronous (one MAC and one prepared statement).
 *
 * CSRF choice: a session-bound (synchronizer) token rather than a double-submit cookie. It needs
 * no second cookie, cannot be planted by a sibling subdomain writing cookies, and dies with the
 * session. The dashboard reads it from the login answer or `GET /v1/auth/session` (a cross-origin
 * page cannot read those answers: no CORS).
 */
import type { Db } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { hmacBase64, safeEqual } from "../../lib/crypto";
import { rawId } from "../../lib/ids";
import type { Role } from "../accounts/roles";
import { recordSession, signingKey, TOKEN_TTL_SECONDS } from "./tokens";

/** A signed-in dashboard user. `role` is the user's current role. */
export interface DashboardSession {
  accountId: string;
  userId: string;
  role: Role;
  jti: string;
}

const VALUE_SHAPE = /^([A-Za-z0-9_-]{10,64})\.([A-Za-z0-9_-]{43})$/;

const mac = (db: Db, clock: Clock, label: string, jti: string) =>
  hmacBase64(signingKey(db, clock), `${label}:${jti}`).replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_");

/** The CSRF token of session `jti` (43 base64url characters); stable for the session's life. */
export function csrfTokenFor(db: Db, clock: Clock, jti: string): string {
  return mac(db, clock, "csrf", jti);
}

/** True when `sent` is the CSRF token of session `jti` (constant-time). */
export function csrfMatches(db: Db, clock: Clock, jti: string, sent: string | null): boolean {
  return !!sent && safeEqual(sent, csrfTokenFor(db, clock, jti));
}

/**
 * Opens a session for `user` (12 hours, like a bearer token). Returns the cookie value, the CSRF
 * token and the lifetime in seconds.
 */
export function openDashboardSession(db: Db, clock: Clock, user: { id: string; accountId: string }): { value: string; csrfToken: string; expiresIn: number; jti: string } {
  const now = clock.nowMs();
  const jti = rawId();
  recordSession(db, now, { jti, accountId: user.accountId, userId: user.id, expiresAt: now + TOKEN_TTL_SECONDS * 1000 });
  return { value: `${jti}.${mac(db, clock, "session", jti)}`, csrfToken: csrfTokenFor(db, clock, jti), expiresIn: TOKEN_TTL_SECONDS, jti };
}

type Row = { accountId: string; userId: string; expiresAt: number; role: string; userAccount: string };
const queries = new WeakMap<Db, { get(jti: string): Row | null }>();

function sessionQuery(db: Db) {
  let q = queries.get(db);
  if (!q) {
    const stmt = db.$client.prepare<Row, [string]>(
      `select s.account_id as accountId, s.user_id as userId, s.expires_at as expiresAt, u.role as role, u.account_id as userAccount
         from sessions s join users u on u.id = s.user_id where s.jti = ? and s.revoked_at is null`,
    );
    q = { get: (jti) => stmt.get(jti) };
    queries.set(db, q);
  }
  return q;
}

/**
 * The session of a cookie value, or null when it is malformed, badly signed, expired, logged
 * out, or its user left the account.
 */
export function verifyDashboardSession(db: Db, clock: Clock, value: string): DashboardSession | null {
  const m = VALUE_SHAPE.exec(value);
  if (!m) return null;
  const jti = m[1]!;
  if (!safeEqual(m[2]!, mac(db, clock, "session", jti))) return null;
  const row = sessionQuery(db).get(jti);
  if (!row || row.expiresAt <= clock.nowMs() || row.userAccount !== row.accountId) return null;
  return { accountId: row.accountId, userId: row.userId, role: row.role as Role, jti };
}
