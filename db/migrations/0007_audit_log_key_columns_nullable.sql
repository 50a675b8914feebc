PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`actor_user_id` text NOT NULL,
	`action` text NOT NULL,
	`target` text,
	`status` integer,
	`detail` text,
	`key_id` text,
	`key_fingerprint` text,
	`previous_key_id` text,
	`previous_key_fingerprint` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_audit_log`("id", "account_id", "actor_user_id", "action", "target", "status", "detail", "key_id", "key_fingerprint", "previous_key_id", "previous_key_fingerprint", "created_at") SELECT "id", "account_id", "actor_user_id", "action", "target", "status", "detail", "key_id", "key_fingerprint", "previous_key_id", "previous_key_fingerprint", "created_at" FROM `audit_log`;--> statement-breakpoint
DROP TABLE `audit_log`;--> statement-breakpoint
ALTER TABLE `__new_audit_log` RENAME TO `audit_log`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `audit_log_account_idx` ON `audit_log` (`account_id`,`created_at`);