/**
 * Tables of the auth group: service secrets (the dashboard token signing key), dashboard
 * sessions (one row per issued token, checked on every bearer request), the audit log of key
 * operations and the request log of apikey-authenticated calls (interface.md "Authentication" 9).
 */
import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/** Secrets generated once per data directory (e.g. `dashboard_jwt_hs256`), so tokens survive restarts. */
export const serviceSecrets = sqliteTable("service_secrets", {
  name: text("name").primaryKey(),
  /** base64url of random bytes. */
  value: text("value").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** One row per dashboard token (`jti`); logout sets `revoked_at` and the token dies at once. */
export const sessions = sqliteTable(
  "sessions",
  {
    jti: text("jti").primaryKey(),
    accountId: text("account_id").notNull(),
    userId: text("user_id").notNull(),
    /** Epoch ms. */
    issuedAt: integer("issued_at").notNull(),
    /** Epoch ms. */
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Key operations: `api_key.issued`, `api_key.rotated`, `api_key.revoked`. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    /** The acting dashboard user. */
    actorUserId: text("actor_user_id").notNull(),
    action: text("action").notNull(),
    /**
     * What the action was applied to: the key id for `api_key.*`, `"<METHOD> <path>"` for
     * `dashboard.request`. Null only on rows older than migration 0006 that it could not fill.
     */
    target: text("target"),
    /** `dashboard.request`: the HTTP status answered; null for key actions. */
    status: integer("status"),
    /** Optional JSON object of action-specific facts (e.g. `{"mode":"live"}`); null when none. */
    detail: text("detail"),
    /** `api_key.*`: the key the action produced or affected (rotate: the new key); null otherwise. */
    keyId: text("key_id"),
    keyFingerprint: text("key_fingerprint"),
    /** Rotate only: the revoked key. */
    previousKeyId: text("previous_key_id"),
    previousKeyFingerprint: text("previous_key_fingerprint"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("audit_log_account_idx").on(t.accountId, t.createdAt)],
);

/** Every apikey-authenticated request (time, method, path, status, request id, key fingerprint). */
export const requestLogs = sqliteTable(
  "request_logs",
  {
    /** Insertion order; the cursor order of GET /v1/request-logs. */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull().unique(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    requestId: text("request_id").notNull(),
    keyFingerprint: text("key_fingerprint").notNull(),
    durationMs: integer("duration_ms").notNull(),
    /** Epoch ms. */
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("request_logs_account_idx").on(t.accountId, t.seq)],
);
