CREATE TABLE "psp_infractions" (
	"connection_id" text NOT NULL,
	"id" text NOT NULL,
	"account_id" text NOT NULL,
	"end_to_end_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"case_id" text,
	"psp_created_at" bigint NOT NULL,
	"defense_sent_at" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "psp_infractions_connection_id_id_pk" PRIMARY KEY("connection_id","id")
);
--> statement-breakpoint
CREATE TABLE "reconciliations" (
	"account_id" text NOT NULL,
	"date" text NOT NULL,
	"connection_id" text NOT NULL,
	"status" text NOT NULL,
	"result" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "reconciliations_account_id_date_pk" PRIMARY KEY("account_id","date")
);
--> statement-breakpoint
CREATE INDEX "psp_infractions_account_idx" ON "psp_infractions" USING btree ("account_id","psp_created_at");