CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`payer_lock_enabled` integer DEFAULT false NOT NULL,
	`default_expires_in` integer DEFAULT 3600 NOT NULL,
	`pix_fee_bps` integer DEFAULT 0 NOT NULL,
	`pix_fee_fixed` integer DEFAULT 0 NOT NULL,
	`settlement_delay_seconds` integer DEFAULT 86400 NOT NULL,
	`customer_velocity_max` integer,
	`account_velocity_max` integer,
	`velocity_window_seconds` integer DEFAULT 3600 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`mode` text NOT NULL,
	`fingerprint` text NOT NULL,
	`prefix` text NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`created_by` text,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_fingerprint_uq` ON `api_keys` (`fingerprint`);--> statement-breakpoint
CREATE INDEX `api_keys_account_idx` ON `api_keys` (`account_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_uq` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_account_idx` ON `users` (`account_id`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`due_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`lease_until` integer,
	`dedupe_key` text,
	`last_error` text,
	`state` text DEFAULT 'queued' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_due_idx` ON `jobs` (`state`,`due_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_dedupe_uq` ON `jobs` (`dedupe_key`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`locked_until` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `idempotency_scope_uq` ON `idempotency_keys` (`account_id`,`livemode`,`scope`,`key`);--> statement-breakpoint
CREATE INDEX `idempotency_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`type` text NOT NULL,
	`family` text NOT NULL,
	`body` text NOT NULL,
	`transaction_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_account_idx` ON `events` (`account_id`,`livemode`,`created_at`);--> statement-breakpoint
CREATE INDEX `events_tx_idx` ON `events` (`transaction_id`);--> statement-breakpoint
CREATE TABLE `transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`payment_methods` text NOT NULL,
	`paid_with` text,
	`origin` text NOT NULL,
	`customer_id` text,
	`customer_name` text,
	`customer_document` text,
	`customer_email` text,
	`customer_phone` text,
	`expected_payer_tax_id` text,
	`payer_lock_applied` integer DEFAULT false NOT NULL,
	`metadata` text DEFAULT '{}' NOT NULL,
	`webhook_url` text,
	`pix_br_code` text,
	`pix_txid` text,
	`pix_location` text,
	`expires_at` integer,
	`ttl_seconds` integer,
	`method_details` text DEFAULT '{}' NOT NULL,
	`end_to_end_id` text,
	`platform_fee` integer,
	`refunded_amount` integer DEFAULT 0 NOT NULL,
	`paid_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tx_account_created_idx` ON `transactions` (`account_id`,`livemode`,`created_at`);--> statement-breakpoint
CREATE INDEX `tx_account_status_idx` ON `transactions` (`account_id`,`livemode`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `tx_account_doc_idx` ON `transactions` (`account_id`,`livemode`,`customer_document`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `tx_txid_uq` ON `transactions` (`pix_txid`);--> statement-breakpoint
CREATE UNIQUE INDEX `tx_e2e_uq` ON `transactions` (`end_to_end_id`);