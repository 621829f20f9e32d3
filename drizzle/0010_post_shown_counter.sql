-- The revision a post's fingerprint reads comes from one counter, on every insert (a REPLACE
-- included) and on every write of a shown column: with 0009's per-row OLD + 1 alone, an
-- INSERT OR REPLACE of a never-edited post kept revision 0 and a rebuild missed its change.
-- Written to apply over either 0009 a database ran: the first (per-row trigger, no counter) or
-- the one the release of b3f05ec shipped in its place (counter and both triggers already there).
-- The counter starts past every revision recorded so far, so no row ever gets one back.
CREATE TABLE IF NOT EXISTS `post_shown_counter` (
	`id` integer PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
INSERT OR IGNORE INTO `post_shown_counter` (`id`, `value`) VALUES (1, (SELECT coalesce(max(`shown_revision`), 0) FROM `posts`));--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_shown_revision`;--> statement-breakpoint
CREATE TRIGGER `posts_shown_revision` AFTER UPDATE OF `id`, `language`, `slug`, `alternate_slug`, `title`, `summary`, `content_html`, `content_text`, `cover_image`, `cover_alt`, `category_id`, `author_id`, `author`, `seo_title`, `seo_description`, `canonical_url`, `robots`, `indexable`, `og_title`, `og_description`, `og_image`, `answer_summary`, `key_takeaways`, `faq_blocks`, `toc`, `related_product_ids`, `reviewed_at`, `status`, `seo_score`, `aeo_score`, `published_at`, `created_at`, `updated_at`, `deleted_at`, `version` ON `posts` FOR EACH ROW BEGIN UPDATE `post_shown_counter` SET `value` = `value` + 1 WHERE `id` = 1; UPDATE `posts` SET `shown_revision` = (SELECT `value` FROM `post_shown_counter` WHERE `id` = 1) WHERE `id` = NEW.`id`; END;--> statement-breakpoint
DROP TRIGGER IF EXISTS `posts_shown_revision_insert`;--> statement-breakpoint
CREATE TRIGGER `posts_shown_revision_insert` AFTER INSERT ON `posts` FOR EACH ROW BEGIN UPDATE `post_shown_counter` SET `value` = `value` + 1 WHERE `id` = 1; UPDATE `posts` SET `shown_revision` = (SELECT `value` FROM `post_shown_counter` WHERE `id` = 1) WHERE `id` = NEW.`id`; END;
