import { and, eq, isNull, or, sql, type Column } from 'drizzle-orm'
import type { Tx } from '../../db/client.ts'
import { authors, pages, posts, settings } from '../../db/schema/index.ts'
import type { Change } from '../../shared/changes.ts'

/** Whether a text column names the stored key (a URL ending in it, or a body with it in an `<img src>`). */
const names = (column: Column, key: string) => sql`instr(${column}, ${key}) > 0`

/**
 * The changes that re-render whatever shows one upload, recorded with the media row update that
 * gives it its variants (variant-jobs.ts): a post published before its image's variants were
 * made shows the plain image until then. Each is the change its own kind of write records, with
 * nothing new in it (a post or page as it is, an author, the settings), so the artifact kinds
 * plan the pages showing it as they would after an edit: the post's page and the lists with its
 * card, a page, an author's pages, every page for the publication's icon.
 */
export function changesShowing(tx: Tx, key: string): Change[] {
  const found: Change[] = []
  const shownPosts = tx
    .select()
    .from(posts)
    .where(
      and(
        eq(posts.status, 1),
        isNull(posts.deletedAt),
        or(names(posts.coverImage, key), names(posts.ogImage, key), names(posts.contentHtml, key)),
      ),
    )
    .all()
  for (const row of shownPosts) found.push({ kind: 'post', event: null, before: row, after: row })
  const shownPages = tx
    .select()
    .from(pages)
    .where(and(eq(pages.status, 1), or(names(pages.ogImage, key), names(pages.contentHtml, key))))
    .all()
  for (const row of shownPages) found.push({ kind: 'page', before: row, after: row })
  for (const { id } of tx.select({ id: authors.id }).from(authors).where(names(authors.avatar, key)).all())
    found.push({ kind: 'author', id })
  // The publication's icon is in every page's header.
  if (tx.select({ key: settings.key }).from(settings).where(names(settings.value, key)).get()) found.push({ kind: 'settings' })
  return found
}
