CREATE TABLE `card_provider_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`type` text NOT NULL,
	`api_base` text NOT NULL,
	`secret_key_sealed` text NOT NULL,
	`webhook_secret_sealed` text NOT NULL,
	`key_last4` text NOT NULL,
	`provider_account_id` text,
	`webhook_endpoint_id` text NOT NULL,
	`webhook_url` text NOT NULL,
	`events_seen_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `card_provider_connections_account_uq` ON `card_provider_connections` (`account_id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE TABLE `card_provider_events` (
	`connection_id` text NOT NULL,
	`event_id` text NOT NULL,
	`type` text NOT NULL,
	`received_at` integer NOT NULL,
	PRIMARY KEY(`connection_id`, `event_id`)
);
--> statement-breakpoint
CREATE INDEX `ledger_entries_statement_idx` ON `ledger_entries` (`account_id`,`livemode`,`currency`,`created_at`,`id`);