-- Custom SQL migration file, put your code below! --
-- Issue 15 phase 2: rows written before 0006 squeezed dashboard requests into the key columns
-- (method and path in key_id, HTTP status in key_fingerprint); key actions name their key as target.
UPDATE `audit_log` SET `target` = `key_id`, `status` = CAST(`key_fingerprint` AS INTEGER), `key_id` = NULL, `key_fingerprint` = NULL WHERE `action` = 'dashboard.request';--> statement-breakpoint
UPDATE `audit_log` SET `target` = `key_id` WHERE `action` <> 'dashboard.request' AND `target` IS NULL;
