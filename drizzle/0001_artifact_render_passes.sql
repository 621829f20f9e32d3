CREATE TABLE `artifact_files` (
	`path` text PRIMARY KEY NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `artifact_jobs` ADD `seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `artifact_jobs` ADD `attempts` integer DEFAULT 0 NOT NULL;