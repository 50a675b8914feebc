PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_ledger_balances` (
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`currency` text NOT NULL,
	`ledger_account` text NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	`shard` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `livemode`, `currency`, `ledger_account`, `shard`)
);
--> statement-breakpoint
INSERT INTO `__new_ledger_balances`("account_id", "livemode", "currency", "ledger_account", "balance", "updated_at", "shard") SELECT "account_id", "livemode", "currency", "ledger_account", "balance", "updated_at", "shard" FROM `ledger_balances`;--> statement-breakpoint
DROP TABLE `ledger_balances`;--> statement-breakpoint
ALTER TABLE `__new_ledger_balances` RENAME TO `ledger_balances`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE TABLE `__new_payment_daily_stats` (
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`method` text NOT NULL,
	`status` text NOT NULL,
	`paid` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`refunded` integer DEFAULT 0 NOT NULL,
	`shard` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `livemode`, `day`, `currency`, `method`, `status`, `paid`, `shard`)
);
--> statement-breakpoint
INSERT INTO `__new_payment_daily_stats`("account_id", "livemode", "day", "currency", "method", "status", "paid", "count", "amount", "refunded", "shard") SELECT "account_id", "livemode", "day", "currency", "method", "status", "paid", "count", "amount", "refunded", "shard" FROM `payment_daily_stats`;--> statement-breakpoint
DROP TABLE `payment_daily_stats`;--> statement-breakpoint
ALTER TABLE `__new_payment_daily_stats` RENAME TO `payment_daily_stats`;--> statement-breakpoint
CREATE TABLE `__new_payment_pay_time_hist` (
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`bucket` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`shard` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `livemode`, `day`, `currency`, `bucket`, `shard`)
);
--> statement-breakpoint
INSERT INTO `__new_payment_pay_time_hist`("account_id", "livemode", "day", "currency", "bucket", "count", "shard") SELECT "account_id", "livemode", "day", "currency", "bucket", "count", "shard" FROM `payment_pay_time_hist`;--> statement-breakpoint
DROP TABLE `payment_pay_time_hist`;--> statement-breakpoint
ALTER TABLE `__new_payment_pay_time_hist` RENAME TO `payment_pay_time_hist`;--> statement-breakpoint
CREATE TABLE `__new_payment_pay_time_hist_monthly` (
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`bucket` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`shard` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `livemode`, `month`, `currency`, `bucket`, `shard`)
);
--> statement-breakpoint
INSERT INTO `__new_payment_pay_time_hist_monthly`("account_id", "livemode", "month", "currency", "bucket", "count", "shard") SELECT "account_id", "livemode", "month", "currency", "bucket", "count", "shard" FROM `payment_pay_time_hist_monthly`;--> statement-breakpoint
DROP TABLE `payment_pay_time_hist_monthly`;--> statement-breakpoint
ALTER TABLE `__new_payment_pay_time_hist_monthly` RENAME TO `payment_pay_time_hist_monthly`;