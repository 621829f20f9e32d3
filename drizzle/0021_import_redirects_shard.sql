ALTER TABLE `import_redirects` ADD `shard` text;--> statement-breakpoint
CREATE INDEX `import_redirects_shard` ON `import_redirects` (`shard`);