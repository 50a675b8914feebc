ALTER TABLE `jobs` ADD `wake_at` integer;--> statement-breakpoint
ALTER TABLE `ledger_balances` ADD `shard` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_daily_stats` ADD `shard` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_pay_time_hist` ADD `shard` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_pay_time_hist_monthly` ADD `shard` integer DEFAULT 0 NOT NULL;