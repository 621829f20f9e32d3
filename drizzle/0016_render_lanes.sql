ALTER TABLE `artifact_jobs` ADD `lane` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `artifact_jobs_lane_due` ON `artifact_jobs` (`lane`,`due_at`);