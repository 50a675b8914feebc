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
    /**
     * The instance holding an in-progress claim (PostgreSQL, issue 17: src/store/pg/claims.ts);
     * once that instance is gone the same request takes the claim over at once. Null on SQLite.
     */
    holder: text("holder"),
  },
  (t) => [
    uniqueIndex("idempotency_scope_uq").on(t.accountId, t.livemode, t.scope, t.key),
    index("idempotency_created_idx").on(t.createdAt),
  ],
);

/**
 * Durable create intents of live Pix charges (issue 14 §3, src/domain/charges/intents.ts): written
 * before the PSP's `PUT /cob/{txid}` in a transaction of their own, deleted in the transaction that
 * inserts the charge (or when the PSP refuses it / never created the cob). Keyed like the
 * idempotency record the request would complete.
 */
export const createIntents = sqliteTable(
  "create_intents",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    /** Idempotency scope, e.g. `POST /v1/pix/charges`. */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the canonical request body (as idempotency_keys.request_hash). */
    requestHash: text("request_hash").notNull(),
    /** The PSP's id of what is created (the cob txid). */
    txid: text("txid").notNull(),
    /** Raw id of the transaction the intent inserts. */
    transactionId: text("transaction_id").notNull(),
    /** The provider connection that creates it. */
    connectionId: text("connection_id").notNull(),
    /** JSON: the transaction row as it will be inserted (before the provider's columns). */
    row: text("row").notNull(),
    /** How the idempotent response is rendered (`charge` | `transaction`). */
    view: text("view").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("create_intents_key_uq").on(t.accountId, t.livemode, t.scope, t.key),
    index("create_intents_created_idx").on(t.createdAt),
  ],
);
