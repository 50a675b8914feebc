/**
 * Card provider connections (extensions.md "Live cards and boletos through Stripe"): one active
 * connection per account, serving its live CREDIT_CARD and BOLETO through Stripe. The secret key
 * and the webhook signing secret are sealed with src/lib/secret-box.ts, bound to
 * `card_provider:<id>:<field>`. `card_provider_events` remembers the Stripe events already
 * handled (webhooks are idempotent by event id).
 */
import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";

export const cardProviderConnections = sqliteTable(
  "card_provider_connections",
  {
    /** `cpc_` + raw id; also the last segment of the webhook URL registered at Stripe. */
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    /** "stripe" */
    type: text("type").notNull(),
    /** API origin the client is pointed at (`https://api.stripe.com`, or the simulator's). */
    apiBase: text("api_base").notNull(),
    /** secret-box sealed (aad `card_provider:<id>:secret_key`). */
    secretKeySealed: text("secret_key_sealed").notNull(),
    /** secret-box sealed webhook signing secret (aad `card_provider:<id>:webhook_secret`). */
    webhookSecretSealed: text("webhook_secret_sealed").notNull(),
    /** Last four characters of the secret key (shown to tell keys apart; not a secret). */
    keyLast4: text("key_last4").notNull(),
    /** The Stripe account the key belongs to (`acct_...`), when Stripe said. */
    providerAccountId: text("provider_account_id"),
    /** Stripe's id of Cofre's webhook endpoint (`we_...`). */
    webhookEndpointId: text("webhook_endpoint_id").notNull(),
    webhookUrl: text("webhook_url").notNull(),
    /** Epoch seconds of the newest Stripe event the periodic event sweep has seen (its next `created[gte]`). */
    eventsSeenUntil: integer("events_seen_until"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** Epoch ms of DELETE; the row stays so payments created through it keep settling. */
    deletedAt: integer("deleted_at"),
  },
  (t) => [uniqueIndex("card_provider_connections_account_uq").on(t.accountId).where(sql`deleted_at IS NULL`)],
);

/** Stripe events already handled, per connection (a redelivery or the sweep's copy is skipped). */
export const cardProviderEvents = sqliteTable(
  "card_provider_events",
  {
    connectionId: text("connection_id").notNull(),
    /** Stripe's `evt_...`. */
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.eventId] })],
);
