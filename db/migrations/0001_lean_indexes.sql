DROP INDEX `events_account_idx`;--> statement-breakpoint
DROP INDEX `tx_txid_uq`;--> statement-breakpoint
DROP INDEX `tx_e2e_uq`;--> statement-breakpoint
CREATE INDEX `tx_waiting_expiry_idx` ON `transactions` (`expires_at`) WHERE "transactions"."status" in ('PENDING', 'WAITING_PAYMENT') and "transactions"."expires_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `tx_txid_uq` ON `transactions` (`pix_txid`) WHERE "transactions"."pix_txid" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX `tx_e2e_uq` ON `transactions` (`end_to_end_id`) WHERE "transactions"."end_to_end_id" is not null;