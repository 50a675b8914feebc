/**
 * The dashboard's cookie session as a third way into the API's auth shapes (issue 15): the
 * `apikey` routes (api-key-auth.ts) and the bearer routes (bearer-auth.ts) fall back to it only
 * when their own credential header is absent, so API-key requests never pay for it.
 *
 * - Cookie `cofre_session` (HttpOnly, SameSite=Strict, Path=/, Secure when COFRE_PUBLIC_URL is
 *   https); value from src/domain/auth/dashboard-session.ts. Bad or ended session -> 401 `unauthorized`.
 * - Every request whose method is not GET/HEAD/OPTIONS must carry the session's CSRF token in
 *   `X-CSRF-Token`, else 403 `csrf_invalid` before anything runs.
 * - Mode: header `Cofre-Mode: test|live` (default `test`; anything else -> 400 `invalid_request`).
 * - Roles: src/domain/auth/dashboard-roles.ts (403 `role_forbidden`).
 * - The acting user is put in the request facts; src/app.ts writes the audit entry of every
 *   successful state-changing session request (src/domain/audit/audit-log.ts `dashboard.request`).
 */
import type { Deps } from "../../domain/deps";
import { csrfMatches, verifyDashboardSession, type DashboardSession } from "../../domain/auth/dashboard-session";
import { isSafeMethod, requireRole } from "../../domain/auth/dashboard-roles";
import { ApiError } from "../errors";
import { pathOf, requestFacts } from "../context";
import type { ApiKeyAuth } from "./api-key-auth";

export const SESSION_COOKIE = "cofre_session";
export const CSRF_HEADER = "x-csrf-token";
export const MODE_HEADER = "cofre-mode";

const COOKIE_RE = /(?:^|;\s*)cofre_session=([^;]*)/;

/** The session cookie's value in `request`, or null. */
export function sessionCookieValue(request: Request): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  return COOKIE_RE.exec(header)?.[1] ?? null;
}

/** `Set-Cookie` value of a new session (`maxAge` seconds). */
export function sessionCookie(value: string, maxAge: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** `Set-Cookie` value that deletes the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** True when the service's public URL is https (the cookie then carries `Secure`). */
export function secureCookies(deps: Deps): boolean {
  return deps.config.publicUrl.startsWith("https:");
}

/**
 * The session of the request's cookie `value`, with the CSRF check for state-changing methods.
 * Throws 401 `unauthorized` (no valid session) or 403 `csrf_invalid`.
 */
export async function authenticateSession(deps: Deps, request: Request, value: string): Promise<DashboardSession> {
  const session = await verifyDashboardSession(deps, value);
  if (!session) throw new ApiError("unauthorized", "The dashboard session is missing, expired or ended; log in again.");
  if (!isSafeMethod(request.method) && !(await csrfMatches(deps, session.jti, request.headers.get(CSRF_HEADER))))
    throw new ApiError("csrf_invalid", "Missing or wrong CSRF token (X-CSRF-Token).", { param: "X-CSRF-Token" });
  const facts = requestFacts(request);
  facts.accountId = session.accountId;
  facts.actorUserId = session.userId;
  return session;
}

/** The mode a session request asks for (`Cofre-Mode`, default test); 400 `invalid_request` otherwise. */
export function requestedMode(request: Request): "test" | "live" {
  const mode = request.headers.get(MODE_HEADER);
  if (mode === null || mode === "test") return "test";
  if (mode === "live") return "live";
  throw new ApiError("invalid_request", "Cofre-Mode must be `test` or `live`.", {
    param: "Cofre-Mode",
    details: [{ param: "Cofre-Mode", message: "Expected `test` or `live`." }],
  });
}

/**
 * A session request to an `apikey` route, as the ApiKeyAuth that route already takes (`keyId` is
 * `session:<jti>`; `fingerprint` is empty), after the role check and the per-user rate limit.
 */
export async function sessionApiAuth(
  deps: Deps,
  request: Request,
  value: string,
  set: { headers: Record<string, string | number> },
): Promise<ApiKeyAuth> {
  const session = await authenticateSession(deps, request, value);
  const mode = requestedMode(request);
  requireRole(session.role, request.method, pathOf(request));
  requestFacts(request).livemode = mode === "live";
  if (deps.rateLimiter.enabled) {
    const d = deps.rateLimiter.hit(`user:${session.userId}`, session.accountId);
    set.headers["x-ratelimit-limit-minute"] = String(d.limit);
    set.headers["x-ratelimit-remaining-minute"] = String(d.remaining);
    if (!d.allowed)
      throw new ApiError("rate_limited", "Too many requests; retry after the window resets.", {
        headers: { "Retry-After": String(d.resetIn) },
      });
  }
  return {
    accountId: session.accountId,
    livemode: mode === "live",
    mode,
    keyId: `session:${session.jti}`,
    fingerprint: "",
    user: { userId: session.userId, role: session.role },
  };
}
