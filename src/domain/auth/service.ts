/**
 * Dashboard login and logout (extensions.md "Dashboard authentication"). The same 401
 * `invalid_credentials` for an unknown email and a wrong password (an unknown email still spends
 * a password check's time); attempts are limited per (email, client address), per address and, with
 * a backoff that spares addresses the email logged in from, per email (429; see ./throttle.ts).
 */
import type { Deps } from "../deps";
import { DomainError } from "../errors";
import { normalizeEmail } from "../accounts/service";
import { verifyAgainstDummy, verifyPassword } from "./passwords";
import { issueToken, revokeSession } from "./tokens";
import type { Role } from "../accounts/roles";
import { csrfTokenFor, openDashboardSession, type DashboardSession } from "./dashboard-session";
import { dashboardSessionView } from "./session-views";

/** What login and sessions need: the store, the clock and the login limits. */
export type LoginDeps = Pick<Deps, "store" | "clock" | "loginThrottle">;

export interface LoginResult {
  access_token: string;
  token_type: "Bearer";
  /** Seconds. */
  expires_in: number;
  account_id: string;
  role: string;
}

/**
 * Checks the credentials and issues a token. `address` is the client address (the route takes it
 * from the socket, or from X-Forwarded-For when the socket is a trusted proxy: src/lib/trusted-proxies.ts). Throws 401
 * `invalid_credentials`, or 429 `rate_limited` (with Retry-After, seconds) when the attempt is
 * over a limit of `deps.loginThrottle` (./throttle.ts).
 */
export async function login(
  deps: LoginDeps,
  input: { email: string; password: string; address: string },
): Promise<LoginResult> {
  const user = await checkCredentials(deps, input);
  const { token, expiresIn } = await issueToken(deps, user);
  return {
    access_token: token,
    token_type: "Bearer",
    expires_in: expiresIn,
    account_id: user.accountId,
    role: user.role,
  };
}

/**
 * The user of these credentials, under the same throttle and answers as `login` (401
 * `invalid_credentials`, 429 `rate_limited`); shared by the bearer login and the dashboard's
 * cookie login (dashboard-session.ts).
 */
export async function checkCredentials(deps: LoginDeps, input: { email: string; password: string; address: string }) {
  const email = normalizeEmail(input.email);
  const throttle = deps.loginThrottle;
  const wait = await throttle.admit(email, input.address);
  if (wait > 0)
    throw new DomainError("rate_limited", "Too many login attempts; try again later.", {
      headers: { "Retry-After": String(wait) },
    });
  const user = await deps.store.read.accounts.userByEmail(email);
  const ok = user ? await verifyPassword(input.password, user.passwordHash) : await verifyAgainstDummy(input.password);
  if (!ok || !user) throw new DomainError("invalid_credentials", "Invalid email or password.");
  await throttle.succeeded(email, input.address);
  return user;
}

/** Logout: the session's token stops working at once. */
export async function logout(deps: Pick<Deps, "store" | "clock">, jti: string): Promise<void> {
  await revokeSession(deps, jti);
}

/**
 * Dashboard cookie login (issue 15): the same credentials, throttle and answers as `login`;
 * returns the cookie value, its lifetime (seconds) and the session view (with its CSRF token).
 */
export async function dashboardLogin(deps: LoginDeps, input: { email: string; password: string; address: string }) {
  const user = await checkCredentials(deps, input);
  const opened = await openDashboardSession(deps, user);
  const account = (await deps.store.read.accounts.byId(user.accountId))!;
  const view = dashboardSessionView({
    accountId: user.accountId,
    accountName: account.name,
    userId: user.id,
    email: user.email,
    role: user.role as Role,
    csrfToken: opened.csrfToken,
  });
  return { cookieValue: opened.value, maxAge: opened.expiresIn, view };
}

/** The view of a live dashboard session (GET /v1/auth/session). */
export async function dashboardSessionOf(deps: Pick<Deps, "store" | "clock">, s: DashboardSession) {
  const user = (await deps.store.read.accounts.userById(s.userId))!;
  const account = (await deps.store.read.accounts.byId(s.accountId))!;
  return dashboardSessionView({
    accountId: s.accountId,
    accountName: account.name,
    userId: s.userId,
    email: user.email,
    role: s.role,
    csrfToken: await csrfTokenFor(deps, s.jti),
  });
}
