CREATE TABLE "payout_destinations" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"name" text,
	"tax_id" text,
	"pix_key" text,
	"pix_key_type" text,
	"ispb" text,
	"branch" text,
	"account" text,
	"account_type" text,
	"created_by" text,
	"created_at" bigint NOT NULL,
	"deleted_at" bigint
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"amount" bigint NOT NULL,
	"fee" bigint DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"destination_id" text NOT NULL,
	"destination" text NOT NULL,
	"description" text,
	"metadata" text DEFAULT '{}' NOT NULL,
	"end_to_end_id" text,
	"failure_code" text,
	"failure_message" text,
	"provider_connection_id" text,
	"send_id" text NOT NULL,
	"send_attempts" bigint DEFAULT 0 NOT NULL,
	"sent_at" bigint,
	"due_at" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"processing_at" bigint,
	"paid_at" bigint,
	"failed_at" bigint,
	"cancelled_at" bigint
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "payout_fee_fixed" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "payout_daily_limit" bigint;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "payout_delay_seconds" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "payout_destinations_account_idx" ON "payout_destinations" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "payouts_account_idx" ON "payouts" USING btree ("account_id","livemode","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_send_id_uq" ON "payouts" USING btree ("send_id");