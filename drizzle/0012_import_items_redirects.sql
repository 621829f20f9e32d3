CREATE TABLE `import_items` (
	`source` text NOT NULL,
	`kind` text NOT NULL,
	`source_id` text NOT NULL,
	`target_id` integer NOT NULL,
	`digest` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')) NOT NULL,
	PRIMARY KEY(`source`, `kind`, `source_id`)
);
--> statement-breakpoint
CREATE INDEX `import_items_target` ON `import_items` (`kind`,`target_id`);--> statement-breakpoint
CREATE TABLE `import_redirects` (
	`from_path` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`target_id` integer DEFAULT 0 NOT NULL,
	`language` text NOT NULL,
	`source` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `import_redirects_target` ON `import_redirects` (`kind`,`target_id`);