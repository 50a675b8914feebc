/**
 * Dashboard tokens (extensions.md "Dashboard authentication"): HS256 JWTs signed with `jose`,
 * carrying the account (`acct`), user (`sub`), role and `jti` claims. The signing secret is
 * generated once per data directory and kept in `service_secrets`, so tokens survive restarts.
 * Every token has a `sessions` row; a token is valid only while its row is unrevoked and unexpired.
 */
import { SignJWT, jwtVerify } from "jose";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { serviceSecrets, sessions, users } from "../../../db/schema";
import { tx, type Db } from "../../db/client";
import type { Clock } from "../../lib/clock";
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

const secrets = new WeakMap<Db, Uint8Array>();

/** The signing key of this database, created on first use (32 random bytes). */
export function signingKey(db: Db, clock: Clock): Uint8Array {
  let key = secrets.get(db);
  if (key) return key;
  db.insert(serviceSecrets).values({ name: SECRET_NAME, value: randomBase64Url(32), createdAt: clock.nowMs() }).onConflictDoNothing().run();
  const row = db.select().from(serviceSecrets).where(eq(serviceSecrets.name, SECRET_NAME)).get()!;
  key = new Uint8Array(Buffer.from(row.value, "base64url"));
  secrets.set(db, key);
  return key;
}

/** Issues a token for `user` and records its session. Returns the token and its lifetime (seconds). */
export async function issueToken(
  db: Db,
  clock: Clock,
  user: { id: string; accountId: string; role: string },
): Promise<{ token: string; expiresIn: number }> {
  const now = clock.nowMs();
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
    .sign(signingKey(db, clock));
  recordSession(db, now, { jti, accountId: user.accountId, userId: user.id, expiresAt: (iat + TOKEN_TTL_SECONDS) * 1000 });
  return { token, expiresIn: TOKEN_TTL_SECONDS };
}

/**
 * Records a new `sessions` row (bearer token or dashboard cookie; both end with revokeSession).
 * Pruning expired sessions and recording the new one commit together. Times are epoch ms.
 */
export function recordSession(db: Db, now: number, row: { jti: string; accountId: string; userId: string; expiresAt: number }): void {
  tx(db, (t) => {
    t.delete(sessions).where(lt(sessions.expiresAt, now)).run();
    t.insert(sessions).values({ ...row, issuedAt: now }).run();
  });
}

const sessionQueries = new WeakMap<Db, ReturnType<typeof prepareSessionQuery>>();

function prepareSessionQuery(db: Db) {
  return db
    .select({ accountId: sessions.accountId, userId: sessions.userId, expiresAt: sessions.expiresAt, role: users.role, userAccount: users.accountId })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.jti, sql.placeholder("jti")), isNull(sessions.revokedAt)))
    .prepare();
}

/**
 * The session of `token`, or null when the token is malformed, badly signed, expired, logged out,
 * or its user no longer belongs to the token's account.
 */
export async function verifyToken(db: Db, clock: Clock, token: string): Promise<Session | null> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, signingKey(db, clock), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: clock.now(),
      requiredClaims: ["jti", "sub", "exp"],
    }));
  } catch {
    return null;
  }
  const jti = payload.jti!;
  let q = sessionQueries.get(db);
  if (!q) sessionQueries.set(db, (q = prepareSessionQuery(db)));
  const row = q.get({ jti });
  if (!row || row.expiresAt <= clock.nowMs()) return null;
  if (row.userId !== payload.sub || row.accountId !== payload.acct || row.userAccount !== row.accountId) return null;
  return { accountId: row.accountId, userId: row.userId, role: row.role as Role, jti };
}

/** Ends the session `jti` at once (logout). */
export function revokeSession(db: Db, clock: Clock, jti: string): void {
  db.update(sessions).set({ revokedAt: clock.nowMs() }).where(and(eq(sessions.jti, jti), isNull(sessions.revokedAt))).run();
}
