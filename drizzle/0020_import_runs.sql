CREATE TABLE `import_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`format` text NOT NULL,
	`file_name` text NOT NULL,
	`options` text NOT NULL,
	`state` text NOT NULL,
	`posts_done` integer DEFAULT 0 NOT NULL,
	`report` text,
	`error` text,
	`started_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')) NOT NULL
);
