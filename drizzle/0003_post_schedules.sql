CREATE TABLE `post_schedules` (
	`post_id` integer NOT NULL,
	`action` text NOT NULL,
	`due_at` text NOT NULL,
	`claimed_until` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')) NOT NULL,
	PRIMARY KEY(`post_id`, `action`),
	FOREIGN KEY (`post_id`) REFERENCES `posts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `post_schedules_due` ON `post_schedules` (`due_at`);