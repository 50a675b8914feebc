/** POST /v1/auth/login and POST /v1/auth/logout (extensions.md "Dashboard authentication"). */
import { Elysia } from "elysia";
import type { Deps } from "../../../domain/deps";
import { login, logout } from "../../../domain/auth/service";
import { warmDummyHash } from "../../../domain/auth/passwords";
import { bearerAuth } from "../../plugins/bearer-auth";
import { Str, StrictObject } from "../../schemas";
import { OneOf, Type, View } from "../../../lib/view-schema";
import { ROLES } from "../../../domain/accounts/roles";
import { BODY_ERRORS, op } from "../../openapi";
import { TrustedProxies } from "../../../lib/trusted-proxies";

/** 200 of POST /v1/auth/login. */
const LoginSchema = View("LoginToken", {
  access_token: Type.String({ description: "JWT; send as `Authorization: Bearer <access_token>`." }),
  token_type: Type.Literal("Bearer"),
  expires_in: Type.Integer({ description: "Seconds." }),
  account_id: Type.String(),
  role: OneOf(ROLES),
});

const LoginBody = StrictObject({
  email: Str({ minLength: 1, maxLength: 320 }),
  password: Str({ minLength: 1, maxLength: 1024 }),
});

/**
 * The client address used for login limits: the socket peer, or behind the merchant's trusted
 * proxies (COFRE_TRUSTED_PROXIES) the X-Forwarded-For hop they vouch for (src/lib/trusted-proxies.ts);
 * "unknown" when the server cannot tell (in-process tests).
 */
export function clientAddress(
  proxies: TrustedProxies,
  server: { requestIP(r: Request): { address: string } | null } | null,
  request: Request,
): string {
  let peer: string | null = null;
  try {
    peer = server?.requestIP(request)?.address ?? null;
  } catch {
    peer = null;
  }
  return proxies.clientOf(peer, request.headers.get("x-forwarded-for"));
}

export function loginRoutes(deps: Deps) {
  void warmDummyHash();
  const proxies = new TrustedProxies(deps.config.trustedProxies);
  const open = new Elysia().post(
    "/v1/auth/login",
    async ({ body, request, server }) =>
      login(deps, {
        email: body.email,
        password: body.password,
        address: clientAddress(proxies, server as never, request),
      }),
    {
      body: LoginBody,
      detail: op({
        tags: ["auth"],
        summary: "Log in to the dashboard",
        description:
          'Returns `{access_token, token_type: "Bearer", expires_in, account_id, role}`. A wrong email or password -> 401 `invalid_credentials` (same answer for both). Attempts are limited per email and per client address (429 `rate_limited` with Retry-After); the client address is the socket\'s, or behind a proxy listed in COFRE_TRUSTED_PROXIES the one its X-Forwarded-For names.',
        security: "none",
        ok: { 200: LoginSchema },
        errors: [...BODY_ERRORS, 401, 429],
        requestExample: { email: "owner@example.com", password: "correct horse battery staple" },
      }),
    },
  );
  const authed = new Elysia().use(bearerAuth(deps)).post(
    "/v1/auth/logout",
    async ({ session, set }) => {
      await logout(deps, session.jti);
      set.status = 204;
    },
    {
      detail: op({
        tags: ["auth"],
        security: "bearer",
        summary: "Log out: the token stops working at once (204)",
        ok: { 204: { empty: "Logged out." } },
        errors: [...BODY_ERRORS, 401],
      }),
    },
  );
  return new Elysia().use(open).use(authed);
}
