CREATE TABLE `artifact_mirror_jobs` (
	`path` text PRIMARY KEY NOT NULL,
	`op` text NOT NULL,
	`due_at` integer NOT NULL,
	`seq` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `artifact_mirror_jobs_due` ON `artifact_mirror_jobs` (`due_at`);