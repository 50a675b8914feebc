ALTER TABLE "jobs" ADD COLUMN "wake_at" bigint;--> statement-breakpoint
ALTER TABLE "ledger_balances" ADD COLUMN "shard" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_daily_stats" ADD COLUMN "shard" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_pay_time_hist" ADD COLUMN "shard" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_pay_time_hist_monthly" ADD COLUMN "shard" bigint DEFAULT 0 NOT NULL;