/**
 * The dashboard's cookie session (issue 15; extensions.md "Merchant dashboard"):
 * POST /v1/auth/session (log in: Set-Cookie + CSRF token), GET (who is signed in), DELETE (log out).
 */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { dashboardLogin, dashboardSessionOf, logout } from "../../../domain/auth/service";
import { DashboardSessionSchema } from "../../../domain/auth/session-views";
import { ApiError } from "../../errors";
import { DomainError } from "../../../domain/errors";
import {
  authenticateSession,
  clearedSessionCookie,
  secureCookies,
  sessionCookie,
  sessionCookieValue,
} from "../../plugins/session-auth";
import { Str, StrictObject } from "../../schemas";
import { BODY_ERRORS, op } from "../../openapi";
import { clientAddress } from "./login";
import { TrustedProxies } from "../../../lib/trusted-proxies";

const LoginBody = StrictObject({
  email: Str({ minLength: 1, maxLength: 320 }),
  password: Str({ minLength: 1, maxLength: 1024 }),
});

const COOKIE_NOTE =
  "The session cookie `cofre_session` is HttpOnly, SameSite=Strict, Path=/ (Secure when COFRE_PUBLIC_URL is https). With it, the API routes accept the dashboard's requests: state-changing ones must carry `X-CSRF-Token` (403 `csrf_invalid`), `Cofre-Mode: test|live` picks the mode (default test), and the member's role is enforced (403 `role_forbidden`).";

function sessionOf(deps: Deps, request: Request) {
  const value = sessionCookieValue(request);
  if (!value) throw new ApiError("unauthorized", "No dashboard session; log in first.");
  return authenticateSession(deps, request, value);
}

export function sessionRoutes(deps: Deps) {
  const secure = secureCookies(deps);
  const proxies = new TrustedProxies(deps.config.trustedProxies);
  return new Elysia()
    .post(
      "/v1/auth/session",
      async ({ body, request, server, set }) => {
        const r = await dashboardLogin(deps, {
          email: body.email,
          password: body.password,
          address: clientAddress(proxies, server as never, request),
        });
        set.headers["set-cookie"] = sessionCookie(r.cookieValue, r.maxAge, secure);
        set.headers["cache-control"] = "no-store";
        return r.view;
      },
      {
        body: LoginBody,
        detail: op({
          tags: ["auth"],
          summary: "Log in to the web dashboard (sets the session cookie)",
          description: `Same credentials, limits and answers as POST /v1/auth/login. ${COOKIE_NOTE}`,
          security: "none",
          ok: { 200: DashboardSessionSchema },
          errors: [...BODY_ERRORS, 401, 429],
          requestExample: { email: "owner@example.com", password: "correct horse battery staple" },
        }),
      },
    )
    .get(
      "/v1/auth/session",
      async ({ request, query, set }) => {
        set.headers["cache-control"] = "no-store";
        // `?probe=1` (the dashboard's first request): "nobody signed in" is an answer, not an error,
        // so the login page's console stays clean (issue 29). 204 instead of 401.
        if (query.probe === "1") {
          let session = null;
          try {
            session = await sessionOf(deps, request);
          } catch (err) {
            if (!(err instanceof DomainError && err.code === "unauthorized")) throw err;
          }
          if (!session) {
            set.status = 204;
            return;
          }
          return dashboardSessionOf(deps, session);
        }
        return dashboardSessionOf(deps, await sessionOf(deps, request));
      },
      {
        detail: op({
          tags: ["auth"],
          summary: "The signed-in dashboard member, account and CSRF token",
          description:
            "401 `unauthorized` without a valid session cookie; with `?probe=1` that case answers 204 (no body) instead.",
          security: "none",
          query: [{ name: "probe", description: "`1`: answer 204 rather than 401 when nobody is signed in." }],
          ok: { 200: DashboardSessionSchema, 204: { empty: "With `probe=1`: no valid session." } },
          errors: [401],
        }),
      },
    )
    .delete(
      "/v1/auth/session",
      async ({ request, set }) => {
        await logout(deps, (await sessionOf(deps, request)).jti);
        set.headers["set-cookie"] = clearedSessionCookie(secure);
        set.status = 204;
      },
      {
        body: StrictObject({}),
        detail: op({
          tags: ["auth"],
          summary: "Log out of the dashboard: the session ends at once (204; needs X-CSRF-Token)",
          security: "none",
          ok: { 204: { empty: "Logged out." } },
          errors: [...BODY_ERRORS, 401, 403],
        }),
      },
    );
}
