/** The auth repository of the storage port: sessions (bearer tokens and dashboard cookies) and service secrets. */
import type { NewSessionRow } from "../rows";

/** A session joined with its user, as token and cookie verification need it (epoch ms). */
export interface LiveSession {
  accountId: string;
  userId: string;
  expiresAt: number;
  /** The user's current role. */
  role: string;
  /** The user's account (differs from `accountId` when the user left the session's account). */
  userAccount: string;
}

/** Every method is asynchronous; inside `store.tx` it runs in the unit of work. Times are epoch ms. */
export interface AuthRepo {
  /**
   * The service secret `name`: stores `value` (created at `now`) when there is none yet, and
   * returns the stored value (the first writer wins).
   */
  ensureServiceSecret(name: string, value: string, now: number): Promise<string>;
  /** Deletes the sessions expired before `row.issuedAt`, then records `row` (one call). */
  recordSession(row: NewSessionRow): Promise<void>;
  /** The unrevoked session `jti` with its user's role and account, or undefined (expiry is the caller's check). */
  liveSession(jti: string): Promise<LiveSession | undefined>;
  /** Revokes session `jti` at `now` (no-op when already revoked or unknown). */
  revokeSession(jti: string, now: number): Promise<void>;
}
