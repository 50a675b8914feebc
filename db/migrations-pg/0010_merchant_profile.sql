ALTER TABLE "accounts" ADD COLUMN "trade_name" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "support_phone" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "profile_locked" boolean DEFAULT false NOT NULL;