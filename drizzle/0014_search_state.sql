CREATE TABLE `post_search_state` (
	`post_id` integer PRIMARY KEY NOT NULL,
	`shown_revision` integer NOT NULL,
	`terms` text NOT NULL
);
