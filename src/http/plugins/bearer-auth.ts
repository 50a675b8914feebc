/**
 * Dashboard bearer-token authentication (interface.md "Authentication" 4-5; extensions.md
 * "Dashboard authentication"). `.use(bearerAuth(deps))` gives every later route of the group
 * `session: {accountId, userId, role, jti}`. Runs at `derive`, before body validation.
 *
 * 401 `unauthorized` when: an `apikey` header is present (these routes refuse API keys), the
 * Authorization header is missing or not `Bearer <token>`, the token is badly signed, expired or
 * logged out, or its user left the account. Without an Authorization header, the dashboard session
 * cookie is accepted instead (./session-auth.ts; 403 `csrf_invalid` without its CSRF token). With `{ manage: true }`,
 * roles other than OWNER and ADMIN get 403 `API_KEY_ROLE_REQUIRED` (checked before the body, so the answer does not
 * depend on it);
 * `manage` as a string names what the route does, for the message ("Reading the audit log").
 */
import { Elysia } from "elysia";
import type { Deps } from "../../domain/deps";
import { verifyToken, type Session } from "../../domain/auth/tokens";
import { requireManager } from "../../domain/api-keys/service";
import { ApiError } from "../errors";
import { apiKeyInAuthorization } from "./api-key-auth";
import { authenticateSession, sessionCookieValue } from "./session-auth";

export type { Session };

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

/** Resolves the request's dashboard session or throws 401 `unauthorized`. */
export async function authenticateBearer(deps: Deps, request: Request): Promise<Session> {
  if (request.headers.has("apikey"))
    throw new ApiError("unauthorized", "This route takes a dashboard token (Authorization: Bearer), not an apikey.");
  const header = request.headers.get("authorization") ?? "";
  if (!header) {
    // The dashboard's cookie session (./session-auth.ts; CSRF-checked for state-changing methods).
    const cookie = sessionCookieValue(request);
    if (cookie) return authenticateSession(deps, request, cookie);
  }
  if (apiKeyInAuthorization(header))
    throw new ApiError(
      "unauthorized",
      "This route takes a dashboard token (Authorization: Bearer <token from POST /v1/auth/login>); API keys go in the `apikey` header of the API routes.",
    );
  const m = BEARER.exec(header);
  const session = m ? await verifyToken(deps, m[1]!) : null;
  if (!session) throw new ApiError("unauthorized", "Missing, invalid or expired dashboard token.");
  return session;
}

export function bearerAuth(deps: Deps, opts: { manage?: boolean | string } = {}) {
  return new Elysia().derive({ as: "scoped" }, async ({ request }) => {
    const session = await authenticateBearer(deps, request);
    if (opts.manage) requireManager(session, typeof opts.manage === "string" ? opts.manage : undefined);
    return { session };
  });
}
