/**
 * Dashboard login and logout (extensions.md "Dashboard authentication"). The same 401
 * `invalid_credentials` for an unknown email and a wrong password (an unknown email still spends
 * a password check's time); attempts are limited per (email, client address), per address and, with
 * a backoff that spares addresses the email logged in from, per email (429; see ./throttle.ts).
 */
import type { Db } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { ApiError } from "../../http/errors";
import { findUserByEmail } from "../accounts/repo";
import { normalizeEmail } from "../accounts/service";
import { verifyAgainstDummy, verifyPassword } from "./passwords";
import { LoginThrottle } from "./throttle";
import { issueToken, revokeSession } from "./tokens";

export interface LoginResult {
  access_token: string;
  token_type: "Bearer";
  /** Seconds. */
  expires_in: number;
  account_id: string;
  role: string;
}

const throttles = new WeakMap<Db, LoginThrottle>();

/** The login throttle of this database's service instance. */
export function loginThrottle(db: Db, clock: Clock): LoginThrottle {
  let t = throttles.get(db);
  if (!t) throttles.set(db, (t = new LoginThrottle(clock)));
  return t;
}

/**
 * Checks the credentials and issues a token. `address` is the client address (the route takes it
 * from the socket, `server.requestIP`; X-Forwarded-For is not trusted). Throws 401
 * `invalid_credentials`, or 429 `rate_limited` (with Retry-After, seconds) when the attempt is
 * over a limit of LoginThrottle.
 */
export async function login(db: Db, clock: Clock, input: { email: string; password: string; address: string }): Promise<LoginResult> {
  const email = normalizeEmail(input.email);
  const throttle = loginThrottle(db, clock);
  const wait = throttle.admit(email, input.address);
  if (wait > 0)
    throw new ApiError("rate_limited", "Too many login attempts; try again later.", { headers: { "Retry-After": String(wait) } });
  const user = findUserByEmail(db, email);
  const ok = user ? await verifyPassword(input.password, user.passwordHash) : await verifyAgainstDummy(input.password);
  if (!ok || !user) throw new ApiError("invalid_credentials", "Invalid email or password.");
  throttle.succeeded(email, input.address);
  const { token, expiresIn } = await issueToken(db, clock, user);
  return { access_token: token, token_type: "Bearer", expires_in: expiresIn, account_id: user.accountId, role: user.role };
}

/** Logout: the session's token stops working at once. */
export function logout(db: Db, clock: Clock, jti: string): void {
  revokeSession(db, clock, jti);
}
