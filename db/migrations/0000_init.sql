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
CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`actor_user_id` text NOT NULL,
	`action` text NOT NULL,
	`key_id` text NOT NULL,
	`key_fingerprint` text NOT NULL,
	`previous_key_id` text,
	`previous_key_fingerprint` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_account_idx` ON `audit_log` (`account_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `request_logs` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`request_id` text NOT NULL,
	`key_fingerprint` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `request_logs_id_unique` ON `request_logs` (`id`);--> statement-breakpoint
CREATE INDEX `request_logs_account_idx` ON `request_logs` (`account_id`,`seq`);--> statement-breakpoint
CREATE TABLE `service_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`jti` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`user_id` text NOT NULL,
	`issued_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `ledger_balances` (
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`currency` text NOT NULL,
	`ledger_account` text NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `livemode`, `currency`, `ledger_account`)
);
--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`currency` text NOT NULL,
	`kind` text NOT NULL,
	`cause_kind` text NOT NULL,
	`cause_id` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`meta` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_entries_key_uq` ON `ledger_entries` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `ledger_entries_cause_idx` ON `ledger_entries` (`cause_kind`,`cause_id`);--> statement-breakpoint
CREATE TABLE `ledger_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`entry_id` text NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`currency` text NOT NULL,
	`ledger_account` text NOT NULL,
	`amount` integer NOT NULL,
	`tranche_id` text,
	FOREIGN KEY (`entry_id`) REFERENCES `ledger_entries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ledger_lines_entry_idx` ON `ledger_lines` (`entry_id`);--> statement-breakpoint
CREATE INDEX `ledger_lines_bucket_idx` ON `ledger_lines` (`account_id`,`livemode`,`currency`,`ledger_account`);--> statement-breakpoint
CREATE TABLE `ledger_tranches` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`currency` text NOT NULL,
	`transaction_id` text NOT NULL,
	`amount` integer NOT NULL,
	`remaining` integer NOT NULL,
	`release_at` integer NOT NULL,
	`released_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ledger_tranches_tx_uq` ON `ledger_tranches` (`account_id`,`livemode`,`transaction_id`);--> statement-breakpoint
CREATE INDEX `ledger_tranches_next_idx` ON `ledger_tranches` (`account_id`,`livemode`,`currency`,`released_at`,`release_at`);--> statement-breakpoint
CREATE TABLE `pix_signing_keys` (
	`kid` text PRIMARY KEY NOT NULL,
	`alg` text NOT NULL,
	`private_jwk` text NOT NULL,
	`public_jwk` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sandbox_provider_faults` (
	`account_id` text PRIMARY KEY NOT NULL,
	`mode` text NOT NULL,
	`remaining` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
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
CREATE UNIQUE INDEX `tx_e2e_uq` ON `transactions` (`end_to_end_id`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`outcome` text,
	`status_code` integer,
	`error` text,
	`response_body` text,
	`duration_ms` integer,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`next_attempt_at` integer
);
--> statement-breakpoint
CREATE INDEX `wa_delivery_idx` ON `webhook_attempts` (`delivery_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`endpoint_id` text,
	`target_url` text,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`family` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`last_response_body` text,
	`next_retry_at` integer,
	`delivered_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `wd_account_created_idx` ON `webhook_deliveries` (`account_id`,`livemode`,`created_at`);--> statement-breakpoint
CREATE INDEX `wd_account_status_idx` ON `webhook_deliveries` (`account_id`,`livemode`,`status`);--> statement-breakpoint
CREATE INDEX `wd_endpoint_status_idx` ON `webhook_deliveries` (`endpoint_id`,`status`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`status` text NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `wh_endpoints_account_idx` ON `webhook_endpoints` (`account_id`,`livemode`,`status`);--> statement-breakpoint
CREATE TABLE `webhook_transaction_secrets` (
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `livemode`)
);
--> statement-breakpoint
CREATE TABLE `payment_daily_stats` (
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
	PRIMARY KEY(`account_id`, `livemode`, `day`, `currency`, `method`, `status`, `paid`)
);
--> statement-breakpoint
CREATE TABLE `payment_pay_time_hist` (
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`day` text NOT NULL,
	`currency` text NOT NULL,
	`bucket` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `livemode`, `day`, `currency`, `bucket`)
);
--> statement-breakpoint
CREATE TABLE `payment_pay_time_hist_monthly` (
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`bucket` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `livemode`, `month`, `currency`, `bucket`)
);
--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`transaction_id` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`strategy` text,
	`pass_fee_to_tenant` integer DEFAULT false NOT NULL,
	`destination_key` text,
	`pix_out_fee` integer DEFAULT 0 NOT NULL,
	`method` text NOT NULL,
	`provider_refund_id` text,
	`failure_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`refunded_at` integer
);
--> statement-breakpoint
CREATE INDEX `refunds_tx_idx` ON `refunds` (`transaction_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `refunds_account_idx` ON `refunds` (`account_id`,`livemode`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `refunds_provider_uq` ON `refunds` (`provider_refund_id`);--> statement-breakpoint
CREATE TABLE `med_cases` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`transaction_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`held_amount` integer DEFAULT 0 NOT NULL,
	`reason` text,
	`method` text DEFAULT 'other' NOT NULL,
	`reference_id` text,
	`external_id` text,
	`payer_name` text,
	`payer_document` text,
	`response_deadline` integer,
	`evidence_requested_at` integer,
	`appeal_reason` text,
	`appealed_at` integer,
	`evidence_count` integer DEFAULT 0 NOT NULL,
	`money_outcome` text,
	`resolution` text,
	`review` text,
	`charge_status_before` text NOT NULL,
	`opened_at` integer NOT NULL,
	`closed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `med_cases_account_created_idx` ON `med_cases` (`account_id`,`livemode`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `med_cases_tx_idx` ON `med_cases` (`transaction_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `med_cases_external_uq` ON `med_cases` (`account_id`,`external_id`);--> statement-breakpoint
CREATE TABLE `med_evidence` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`account_id` text NOT NULL,
	`livemode` integer NOT NULL,
	`file_name` text NOT NULL,
	`file_size` integer NOT NULL,
	`mime_type` text NOT NULL,
	`uploaded_by` text NOT NULL,
	`state` text NOT NULL,
	`upload_expires_at` integer NOT NULL,
	`stored_size` integer,
	`sha256` text,
	`storage_key` text,
	`received_at` integer,
	`uploaded_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `med_evidence_case_idx` ON `med_evidence` (`case_id`,`state`,`uploaded_at`);--> statement-breakpoint
CREATE TABLE `med_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL
);
