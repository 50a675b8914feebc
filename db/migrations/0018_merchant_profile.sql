ALTER TABLE `accounts` ADD `trade_name` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `support_email` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `support_phone` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `profile_locked` integer DEFAULT false NOT NULL;