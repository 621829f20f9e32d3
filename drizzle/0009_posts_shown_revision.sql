CREATE TABLE `post_shown_counter` (
	`id` integer PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `posts` ADD `shown_revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
INSERT INTO `post_shown_counter` (`id`, `value`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `posts_shown_revision` AFTER UPDATE OF `id`, `language`, `slug`, `alternate_slug`, `title`, `summary`, `content_html`, `content_text`, `cover_image`, `cover_alt`, `category_id`, `author_id`, `author`, `seo_title`, `seo_description`, `canonical_url`, `robots`, `indexable`, `og_title`, `og_description`, `og_image`, `answer_summary`, `key_takeaways`, `faq_blocks`, `toc`, `related_product_ids`, `reviewed_at`, `status`, `seo_score`, `aeo_score`, `published_at`, `created_at`, `updated_at`, `deleted_at`, `version` ON `posts` FOR EACH ROW BEGIN UPDATE `post_shown_counter` SET `value` = `value` + 1 WHERE `id` = 1; UPDATE `posts` SET `shown_revision` = (SELECT `value` FROM `post_shown_counter` WHERE `id` = 1) WHERE `id` = NEW.`id`; END;--> statement-breakpoint
CREATE TRIGGER `posts_shown_revision_insert` AFTER INSERT ON `posts` FOR EACH ROW BEGIN UPDATE `post_shown_counter` SET `value` = `value` + 1 WHERE `id` = 1; UPDATE `posts` SET `shown_revision` = (SELECT `value` FROM `post_shown_counter` WHERE `id` = 1) WHERE `id` = NEW.`id`; END;
