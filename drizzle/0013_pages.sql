CREATE TABLE `pages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`language` text NOT NULL,
	`slug` text NOT NULL,
	`alternate_slug` text DEFAULT '' NOT NULL,
	`title` text NOT NULL,
	`content_html` text NOT NULL,
	`content_text` text DEFAULT '' NOT NULL,
	`seo_title` text DEFAULT '' NOT NULL,
	`seo_description` text DEFAULT '' NOT NULL,
	`canonical_url` text DEFAULT '' NOT NULL,
	`robots` text DEFAULT '' NOT NULL,
	`indexable` integer DEFAULT true NOT NULL,
	`og_title` text DEFAULT '' NOT NULL,
	`og_description` text DEFAULT '' NOT NULL,
	`og_image` text DEFAULT '' NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`nav_placement` text DEFAULT 'none' NOT NULL,
	`nav_order` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`published_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%d %H:%M:%S', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pages_language_slug` ON `pages` (`language`,`slug`);--> statement-breakpoint
CREATE INDEX `pages_nav` ON `pages` (`status`,`language`,`nav_placement`,`nav_order`);