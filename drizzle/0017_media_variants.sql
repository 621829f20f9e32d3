ALTER TABLE `media` ADD `width` integer;--> statement-breakpoint
ALTER TABLE `media` ADD `height` integer;--> statement-breakpoint
ALTER TABLE `media` ADD `variants` text;--> statement-breakpoint
CREATE INDEX `media_key` ON `media` (`key`);