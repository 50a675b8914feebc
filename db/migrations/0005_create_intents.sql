CREATE TABLE `create_intents` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`txid` text NOT NULL,
	`transaction_id` text NOT NULL,
	`connection_id` text NOT NULL,
	`row` text NOT NULL,
	`view` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `create_intents_key_uq` ON `create_intents` (`account_id`,`livemode`,`scope`,`key`);--> statement-breakpoint
CREATE INDEX `create_intents_created_idx` ON `create_intents` (`created_at`);