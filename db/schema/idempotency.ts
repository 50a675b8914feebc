/** Idempotency records (interface.md Limits; issue "Runtime foundation" part 6). */
import { sqliteTable, text, integer, uniqueIndex, index } from "drizzle-orm/sqlite-core";

export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    /** Route scope, e.g. `POST /v1/charges`. */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the canonical request body. */
    requestHash: text("request_hash").notNull(),
    /** "in_progress" | "completed" */
    state: text("state").notNull(),
    responseStatus: integer("response_status"),
    /** JSON text of the stored response body. */
    responseBody: text("response_body"),
    /** Epoch ms after which an in-progress claim is considered abandoned (crashed request). */
    lockedUntil: integer("locked_until"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("idempotency_scope_uq").on(t.accountId, t.livemode, t.scope, t.key),
    index("idempotency_created_idx").on(t.createdAt),
  ],
);
