CREATE TABLE `post_revisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`post_id` integer NOT NULL,
	`version` integer NOT NULL,
	`fields` text NOT NULL,
	`changed_fields` text NOT NULL,
	`token_name` text NOT NULL,
	`seo_score` integer NOT NULL,
	`aeo_score` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')) NOT NULL,
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `post_revisions_version` ON `post_revisions` (`post_id`,`version`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`caller` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`owner` text NOT NULL,
	`status` integer,
	`headers` text,
	`body` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`caller`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
ALTER TABLE `posts` ADD `version` integer DEFAULT 1 NOT NULL;