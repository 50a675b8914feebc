CREATE TABLE `pix_provider_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`type` text NOT NULL,
	`api_url` text NOT NULL,
	`token_url` text NOT NULL,
	`client_id` text NOT NULL,
	`client_secret_sealed` text NOT NULL,
	`certificate` text NOT NULL,
	`private_key_sealed` text NOT NULL,
	`ca_certificates` text,
	`pix_key` text NOT NULL,
	`scope` text,
	`token_auth` text DEFAULT 'basic' NOT NULL,
	`api_query` text,
	`certificate_fingerprint` text NOT NULL,
	`certificate_expires_at` integer NOT NULL,
	`webhook_url` text NOT NULL,
	`webhook_registered` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pix_provider_connections_account_uq` ON `pix_provider_connections` (`account_id`) WHERE deleted_at IS NULL;