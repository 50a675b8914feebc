ALTER TABLE `audit_log` ADD `target` text;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `status` integer;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `detail` text;--> statement-breakpoint
CREATE INDEX `wd_event_idx` ON `webhook_deliveries` (`event_id`);