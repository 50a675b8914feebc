CREATE TABLE "card_provider_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"api_base" text NOT NULL,
	"secret_key_sealed" text NOT NULL,
	"webhook_secret_sealed" text NOT NULL,
	"key_last4" text NOT NULL,
	"provider_account_id" text,
	"webhook_endpoint_id" text NOT NULL,
	"webhook_url" text NOT NULL,
	"events_seen_until" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "card_provider_events" (
	"connection_id" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" bigint NOT NULL,
	CONSTRAINT "card_provider_events_connection_id_event_id_pk" PRIMARY KEY("connection_id","event_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "card_provider_connections_account_uq" ON "card_provider_connections" USING btree ("account_id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "ledger_entries_statement_idx" ON "ledger_entries" USING btree ("account_id","livemode","currency","created_at","id");