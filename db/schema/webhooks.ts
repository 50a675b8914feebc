/**
 * Tables of the webhooks group: merchant endpoints, one delivery per (event, destination), one
 * durable attempt row per HTTP attempt (Svix style, with `next_attempt_at`), and the per-account
 * secret that signs deliveries to a transaction's own `webhookUrl`.
 */
import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    /** `wh_...` */
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    url: text("url").notNull(),
    /** JSON array of subscribed event names (validated against the event catalog). */
    events: text("events").notNull(),
    /** ACTIVE | INACTIVE */
    status: text("status").notNull(),
    /** 64 lowercase hex characters; the HMAC key is its UTF-8 bytes (extensions.md). */
    secret: text("secret").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("wh_endpoints_account_idx").on(t.accountId, t.livemode, t.status)],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    /** `wd_...`; also the `X-Cofre-Delivery-Id` / `webhook-id` header, stable across retries. */
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    /** `wh_...`; null for a delivery to a transaction's own `webhookUrl`. */
    endpointId: text("endpoint_id"),
    /** Destination of a per-transaction delivery; null for endpoint deliveries (the endpoint's URL at send time). */
    targetUrl: text("target_url"),
    /** `evt_...` of the outbox row whose body is sent. */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** canonical | legacy | med (selects the signature scheme). */
    family: text("family").notNull(),
    /** PENDING | PROCESSING | DELIVERED | FAILED | CANCELLED */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    /** First 2048 characters of the last response body. */
    lastResponseBody: text("last_response_body"),
    /** Epoch ms of the next scheduled attempt; null when none is scheduled. */
    nextRetryAt: integer("next_retry_at"),
    deliveredAt: integer("delivered_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("wd_account_created_idx").on(t.accountId, t.livemode, t.createdAt),
    index("wd_account_status_idx").on(t.accountId, t.livemode, t.status),
    index("wd_endpoint_status_idx").on(t.endpointId, t.status),
    // GET /v1/webhooks/deliveries?transactionId=: the transaction's events (events_tx_idx), then their deliveries.
    index("wd_event_idx").on(t.eventId),
  ],
);

export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id").notNull(),
    /** 1-based attempt number of the delivery. */
    attempt: integer("attempt").notNull(),
    /** scheduled | manual */
    trigger: text("trigger").notNull(),
    /** sending | succeeded | failed */
    status: text("status").notNull(),
    /** Dispatch outcome kind: delivered, http_error, redirect, timeout, network_error, refused, interrupted. */
    outcome: text("outcome"),
    statusCode: integer("status_code"),
    error: text("error"),
    responseBody: text("response_body"),
    durationMs: integer("duration_ms"),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
    /** Epoch ms of the attempt scheduled after this one failed; null when none. */
    nextAttemptAt: integer("next_attempt_at"),
  },
  (t) => [index("wa_delivery_idx").on(t.deliveryId, t.attempt)],
);

/** Per account and mode: signs deliveries to the per-transaction `webhookUrl` (payments group). */
export const webhookTransactionSecrets = sqliteTable(
  "webhook_transaction_secrets",
  {
    accountId: text("account_id").notNull(),
    livemode: integer("livemode", { mode: "boolean" }).notNull(),
    secret: text("secret").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.livemode] })],
);
