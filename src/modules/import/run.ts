import { sql } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { posts } from '../../db/schema/index.ts'
import { eq } from 'drizzle-orm'
import type { Language } from '../../shared/language.ts'
import { digestOf, knownItem } from './ids.ts'
import type { LanguageChoice } from './language.ts'
import { ImportFileError, type ImportEntry, type ImportPost, type TermRef } from './model.ts'
import { preparePost, writePost, type PostOptions, type PreparedPost } from './posts.ts'
import { addRedirect } from './redirects.ts'
import { writePage } from './pages.ts'
import { cleanEntry } from './plain-text.ts'
import { emptyReport, type ImportReport } from './report.ts'
import { Terms } from './terms.ts'

export interface ImportOptions {
  language: LanguageChoice
  status: PostOptions['status']
  dryRun: boolean
  /** `--media fetch` (never with a dry run: the media store is not part of the transaction). */
  fetchMedia?: PostOptions['fetchMedia']
  /** Called as each batch commits (and at the end), with the posts done so far, for a line on stderr. */
  progress?: (postsDone: number) => void
}

/** Posts written per transaction: each batch commits with its `import_items` rows, so a killed run resumes after it. */
const BATCH = 200
/**
 * Posts being prepared at once (sanitized, checked and fixed on the SEO threads while this one
 * parses and writes): enough to keep every thread busy, few enough that memory stays bounded.
 * The CLI hands a thread this many jobs at once, so a thread never waits for this one's next
 * message while it writes a batch.
 */
export const IMPORT_IN_FLIGHT = 16
const UNCATEGORIZED: TermRef = { sourceId: '\0uncategorized', slug: 'uncategorized', name: 'Uncategorized' }

/**
 * Imports a source's entries (model.ts) through Folio's tables: terms as they come, posts checked
 * off the write lock and written in batches with the source's ids remembered, so a re-run updates
 * what changed and creates nothing twice. Renders nothing: the caller runs one rebuild at the end.
 * A dry run does it all inside one transaction that is rolled back.
 */
export async function runImport(ctx: Ctx, entries: AsyncIterable<ImportEntry>, options: ImportOptions): Promise<ImportReport> {
  const iterator = entries[Symbol.asyncIterator]()
  const first = await iterator.next()
  if (first.done || first.value.kind !== 'site') throw new ImportFileError('file', 'no site found in it')
  const { source, feeds } = first.value
  const report = emptyReport(source, options.dryRun)
  const db = ctx.db
  const write = <T>(work: (tx: Queryable) => T): T => (options.dryRun ? work(db) : db.transaction((tx) => work(tx)))
  const homeLanguage: Language = options.language === 'zh' ? 'zh' : 'en'
  const terms = new Terms(source, options.language, report.counts)
  const postOptions: PostOptions = {
    language: options.language,
    status: options.status,
    siteUrl: ctx.config.siteUrl,
    fetchMedia: options.fetchMedia,
  }
  let batch: PreparedPost[] = []
  // Posts written or found unchanged, and how many of them the last progress line told.
  let done = 0
  let told = 0
  const tell = () => {
    if (done !== told) options.progress?.((told = done))
  }
  const flush = () => {
    const ready = batch
    batch = []
    if (ready.length) write((tx) => ready.forEach((p) => writePost(tx, source, p, report)))
    // Said once it is committed: a run killed after this line keeps these posts.
    if (!options.dryRun) tell()
  }
  // Posts are prepared IMPORT_IN_FLIGHT at a time and written in the file's order (slug clashes, the report).
  const preparing: Promise<PreparedPost | null>[] = []
  const settleOldest = async () => {
    const prepared = await preparing.shift()!
    done++
    if (prepared) batch.push(prepared)
    else report.counts.posts.unchanged++
    if (batch.length >= BATCH) flush()
  }
  if (options.dryRun) db.run(sql`begin immediate`)
  try {
    write((tx) =>
      feeds.forEach((path) =>
        addRedirect(tx, path, { kind: 'feed', targetId: 0, language: homeLanguage }, source, report.counts.redirects),
      ),
    )
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const entry = cleanEntry(next.value)
      if (entry.kind === 'post') {
        // Its terms are settled now, in the file's order (before prepareEntry's first await).
        const prepared = prepareEntry(ctx, entry.value, source, terms, write, postOptions, options)
        // Awaited in turn (settleOldest); a failure before then must not count as unhandled.
        prepared.catch(() => {})
        preparing.push(prepared)
        report.skippedComments += entry.value.skippedComments
        if (preparing.length >= IMPORT_IN_FLIGHT) await settleOldest()
      } else if (entry.kind === 'page') {
        const page = entry.value
        write((tx) => writePage(tx, source, page, options.language, ctx.config.siteUrl, report))
      } else if (entry.kind === 'site') throw new ImportFileError('file', 'a second site in one file')
      else
        write((tx) => {
          const { value } = entry
          const id =
            entry.kind === 'category'
              ? terms.category(tx, entry.value)
              : entry.kind === 'tag'
                ? terms.tag(tx, entry.value)
                : terms.author(tx, entry.value)
          for (const path of value.oldPaths)
            addRedirect(tx, path, { kind: entry.kind, targetId: id, language: homeLanguage }, source, report.counts.redirects)
        })
    }
    while (preparing.length) await settleOldest()
    flush()
    tell()
  } catch (error) {
    // Settled before the dry run's rollback: nothing still running writes after it.
    await Promise.allSettled(preparing)
    throw error
  } finally {
    if (options.dryRun) db.run(sql`rollback`)
  }
  return report
}

/** A post to write, or null when this run already wrote exactly this (a re-run of the same file). */
async function prepareEntry(
  ctx: Ctx,
  item: ImportPost,
  source: string,
  terms: Terms,
  write: <T>(work: (tx: Queryable) => T) => T,
  postOptions: PostOptions,
  options: ImportOptions,
): Promise<PreparedPost | null> {
  const digest = digestOf({ item, language: options.language, status: options.status, ...(options.fetchMedia ? { media: 'fetch' } : {}) })
  const known = knownItem(ctx.db, source, 'post', item.sourceId)
  const stored = known && ctx.db.select({ id: posts.id }).from(posts).where(eq(posts.id, known.targetId)).get()
  if (stored && known.digest === digest) return null
  // The most specific category names the post; the others are kept as tags (docs/import-export.md).
  const ordered = item.categories.map((c, i) => ({ c, i, depth: terms.depth(c.sourceId) })).sort((a, b) => b.depth - a.depth || a.i - b.i)
  const [primary = UNCATEGORIZED, ...others] = ordered.map((o) => o.c)
  const tagRefs = [...others, ...item.tags]
  const refsOf = (db: Queryable) => ({
    categoryId: terms.category(db, primary),
    tagIds: [...new Set(tagRefs.map((t) => terms.tag(db, t)))],
    authorId: item.author ? (terms.known(db, 'author', item.author) ?? null) : null,
  })
  // Terms this run already holds are named without a transaction; a new one is written in its own.
  const cached =
    terms.cached('category', primary.sourceId) &&
    tagRefs.every((t) => terms.cached('tag', t.sourceId)) &&
    (!item.author || terms.cached('author', item.author))
  const refs = cached ? refsOf(ctx.db) : write(refsOf)
  return preparePost(ctx, item, refs, postOptions, { id: stored ? known.targetId : 0, digest })
}
