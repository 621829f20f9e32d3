import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, updatedAt } from './columns.ts'

/**
 * What an import created, by the source's own id (docs/import-export.md): a re-run finds the row
 * it wrote before and updates it instead of creating a second one. `source` names the site
 * imported from (`wordpress:https://old.example`), `kind` the Folio table (`post`, `category`,
 * `tag`, `author`, `comment`), `digest` the imported values' hash, so an unchanged item is skipped.
 */
export const importItems = sqliteTable(
  'import_items',
  {
    source: text('source').notNull(),
    kind: text('kind').notNull(),
    sourceId: text('source_id').notNull(),
    targetId: integer('target_id').notNull(),
    digest: text('digest').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.source, table.kind, table.sourceId] }),
    index('import_items_target').on(table.kind, table.targetId),
  ],
)

/**
 * Old public URLs of an imported site and the Folio thing each now lives at: answered 301 by the
 * site (site/serve.ts, behind Caddy too) and exported by `cli redirects export`. `fromPath` is the
 * path (with `?query` for WordPress's `/?p=123`), lower-cased, without a trailing slash but `/`.
 * The target is resolved when answered (`kind` + `targetId`), so a later slug change follows.
 */
export const importRedirects = sqliteTable(
  'import_redirects',
  {
    fromPath: text('from_path').primaryKey(),
    kind: text('kind', { enum: ['post', 'page', 'category', 'tag', 'author', 'feed', 'home'] }).notNull(),
    targetId: integer('target_id').notNull().default(0),
    language: text('language', { enum: ['en', 'zh'] }).notNull(),
    source: text('source').notNull(),
    createdAt: createdAt(),
    /**
     * The redirect files' folder this old URL's file goes in (src/modules/redirects/layout.ts
     * `shardOf`): what one redirect artifact renders. Null when no file can stand for the URL, and
     * for rows stored before the column, until the next rebuild fills it in (`fillShards`).
     */
    shard: text('shard'),
  },
  (table) => [index('import_redirects_target').on(table.kind, table.targetId), index('import_redirects_shard').on(table.shard)],
)
