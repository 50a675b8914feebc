CREATE TABLE `payout_destinations` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`type` text NOT NULL,
	`name` text,
	`tax_id` text,
	`pix_key` text,
	`pix_key_type` text,
	`ispb` text,
	`branch` text,
	`account` text,
	`account_type` text,
	`created_by` text,
	`created_at` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE INDEX `payout_destinations_account_idx` ON `payout_destinations` (`account_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `payouts` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`amount` integer NOT NULL,
	`fee` integer DEFAULT 0 NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`destination_id` text NOT NULL,
	`destination` text NOT NULL,
	`description` text,
	`metadata` text DEFAULT '{}' NOT NULL,
	`end_to_end_id` text,
	`failure_code` text,
	`failure_message` text,
	`provider_connection_id` text,
	`send_id` text NOT NULL,
	`send_attempts` integer DEFAULT 0 NOT NULL,
	`sent_at` integer,
	`due_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`processing_at` integer,
	`paid_at` integer,
	`failed_at` integer,
	`cancelled_at` integer
);
--> statement-breakpoint
CREATE INDEX `payouts_account_idx` ON `payouts` (`account_id`,`livemode`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_send_id_uq` ON `payouts` (`send_id`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `payout_fee_fixed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `payout_daily_limit` integer;--> statement-breakpoint
ALTER TABLE `accounts` ADD `payout_delay_seconds` integer DEFAULT 0 NOT NULL;