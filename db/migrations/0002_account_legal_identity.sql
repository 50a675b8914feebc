ALTER TABLE `accounts` ADD `legal_name` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `tax_id` text;