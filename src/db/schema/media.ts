import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt } from './columns.ts'

/** Uploaded media by content hash: the same bytes keep the key (and URL) of their first upload. */
export const media = sqliteTable(
  'media',
  {
    hash: text('hash').primaryKey(),
    key: text('key').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
    /** Intrinsic size once upright (EXIF orientation applied); null for rows older than variants. */
    width: integer('width'),
    height: integer('height'),
    /**
     * The widths of the resized variants stored beside the original, as a JSON array such as
     * `[480,960,1600]` (docs/media.md); null while they are still to make, `[]` when the image has
     * none (a GIF, or an original that could not be read).
     */
    variants: text('variants'),
    /**
     * Bytes of the largest variant in the original's own format (`…-1600.jpg`), the file feeds
     * name as the enclosure (its length is RSS's `enclosure@length`); null until made.
     */
    largestVariantSize: integer('largest_variant_size'),
  },
  (t) => [index('media_key').on(t.key)],
)
