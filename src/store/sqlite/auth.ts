/** SQLite implementation of the auth repository (src/store/port/auth.ts): sessions and service secrets. */
import { and, eq, isNull, lt } from "drizzle-orm";
import { serviceSecrets, sessions } from "../../../db/schema";
import type { AuthRepo, LiveSession } from "../port/auth";
import type { SqliteContext } from "./context";

/** Hot path (every bearer or dashboard-cookie request): the session by primary key, joined with its user. */
const LIVE_SESSION = `select s.account_id as accountId, s.user_id as userId, s.expires_at as expiresAt, u.role as role, u.account_id as userAccount
         from sessions s join users u on u.id = s.user_id where s.jti = ? and s.revoked_at is null`;

/** Builds the auth repository on the adapter's connection `ctx`. */
export function authRepo(ctx: SqliteContext): AuthRepo {
  const db = ctx.db;
  return {
    async ensureServiceSecret(name, value, now) {
      db.insert(serviceSecrets).values({ name, value, createdAt: now }).onConflictDoNothing().run();
      return db.select().from(serviceSecrets).where(eq(serviceSecrets.name, name)).get()!.value;
    },
    async recordSession(row) {
      db.delete(sessions).where(lt(sessions.expiresAt, row.issuedAt)).run();
      db.insert(sessions).values(row).run();
    },
    async liveSession(jti) {
      return (ctx.stmt(LIVE_SESSION).get(jti) as LiveSession | null) ?? undefined;
    },
    async revokeSession(jti, now) {
      db.update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.jti, jti), isNull(sessions.revokedAt)))
        .run();
    },
  };
}
