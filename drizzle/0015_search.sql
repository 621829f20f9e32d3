-- Hand-written (drizzle has no virtual tables): the posts' full-text index. Contentless (the text
-- lives in posts), rows deletable by rowid = post id. Folio writes pre-tokenized text (search/tokens.ts:
-- lowercased words, Chinese as character bigrams), so unicode61 only splits on the spaces it put there.
-- Rows are filled by the application at start (every post whose post_search_state is missing or stale).
CREATE VIRTUAL TABLE `post_search` USING fts5(title, summary, slug, body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0');
