CREATE TABLE `psp_infractions` (
	`connection_id` text NOT NULL,
	`id` text NOT NULL,
	`account_id` text NOT NULL,
	`end_to_end_id` text NOT NULL,
	`amount` integer NOT NULL,
	`status` text NOT NULL,
	`case_id` text,
	`psp_created_at` integer NOT NULL,
	`defense_sent_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`connection_id`, `id`)
);
--> statement-breakpoint
CREATE INDEX `psp_infractions_account_idx` ON `psp_infractions` (`account_id`,`psp_created_at`);--> statement-breakpoint
CREATE TABLE `reconciliations` (
	`account_id` text NOT NULL,
	`date` text NOT NULL,
	`connection_id` text NOT NULL,
	`status` text NOT NULL,
	`result` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `date`)
);
