/**
 * Dashboard tokens (extensions.md "Dashboard authentication"): HS256 JWTs signed with `jose`,
 * carrying the account (`acct`), user (`sub`), role and `jti` claims. The signing secret is
 * generated once per data directory and kept in `service_secrets`, so tokens survive restarts.
 * Every token has a `sessions` row; a token is valid only while its row is unrevoked and unexpired.
 */
import { SignJWT, jwtVerify } from "jose";
import type { Deps } from "../deps";
import type { Store } from "../../store/port";
import { randomBase64Url } from "../../lib/crypto";
import { rawId } from "../../lib/ids";
import type { Role } from "../accounts/roles";

/** Token lifetime: 12 hours, in seconds. */
export const TOKEN_TTL_SECONDS = 12 * 3600;
const ISSUER = "cofre";
const AUDIENCE = "cofre-dashboard";
const SECRET_NAME = "dashboard_jwt_hs256";

/** The caller of a bearer route. `role` is the user's current role (read on every request). */
export interface Session {
  accountId: string;
  userId: string;
  role: Role;
  jti: string;
}

/** What tokens and sessions need: the store and the clock. */
export type AuthDeps = Pick<Deps, "store" | "clock">;

/** The signing key of each store, loaded (or created) once. */
const secrets = new WeakMap<Store, Promise<Uint8Array>>();

/**
 * The dashboard signing key of this store (32 random bytes kept in `service_secrets`, created on
 * first use; the first writer wins). Opens its own unit of work the first time: never call it
 * inside one.
 */
export function signingKey(deps: AuthDeps): Promise<Uint8Array> {
  let key = secrets.get(deps.store);
  if (!key) {
    const candidate = randomBase64Url(32);
    const now = deps.clock.nowMs();
    key = deps.store
      .tx((uow) => uow.auth.ensureServiceSecret(SECRET_NAME, candidate, now))
      .then((value) => new Uint8Array(Buffer.from(value, "base64url")));
    key.catch(() => secrets.delete(deps.store));
    secrets.set(deps.store, key);
  }
  return key;
}

/** Issues a token for `user` and records its session. Returns the token and its lifetime (seconds). */
export async function issueToken(
  deps: AuthDeps,
  user: { id: string; accountId: string; role: string },
): Promise<{ token: string; expiresIn: number }> {
  const now = deps.clock.nowMs();
  const iat = Math.floor(now / 1000);
  const jti = rawId();
  const token = await new SignJWT({ acct: user.accountId, role: user.role })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(user.id)
    .setJti(jti)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_TTL_SECONDS)
    .sign(await signingKey(deps));
  await recordSession(deps, now, {
    jti,
    accountId: user.accountId,
    userId: user.id,
    expiresAt: (iat + TOKEN_TTL_SECONDS) * 1000,
  });
  return { token, expiresIn: TOKEN_TTL_SECONDS };
}

/**
 * Records a new `sessions` row (bearer token or dashboard cookie; both end with revokeSession).
 * Pruning expired sessions and recording the new one commit together (one unit of work). Times
 * are epoch ms.
 */
export async function recordSession(
  deps: Pick<Deps, "store">,
  now: number,
  row: { jti: string; accountId: string; userId: string; expiresAt: number },
): Promise<void> {
  await deps.store.tx((uow) => uow.auth.recordSession({ ...row, issuedAt: now }));
}

/**
 * The session of `token`, or null when the token is malformed, badly signed, expired, logged out,
 * or its user no longer belongs to the token's account.
 */
export async function verifyToken(deps: AuthDeps, token: string): Promise<Session | null> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, await signingKey(deps), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: deps.clock.now(),
      requiredClaims: ["jti", "sub", "exp"],
    }));
  } catch {
    return null;
  }
  const jti = payload.jti!;
  const row = await deps.store.read.auth.liveSession(jti);
  if (!row || row.expiresAt <= deps.clock.nowMs()) return null;
  if (row.userId !== payload.sub || row.accountId !== payload.acct || row.userAccount !== row.accountId) return null;
  return { accountId: row.accountId, userId: row.userId, role: row.role as Role, jti };
}

/** Ends the session `jti` at once (logout). */
export async function revokeSession(deps: AuthDeps, jti: string): Promise<void> {
  const now = deps.clock.nowMs();
  await deps.store.tx((uow) => uow.auth.revokeSession(jti, now));
}
