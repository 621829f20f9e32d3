import { eq, sql } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable, Tx } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { authors, categories } from '../../db/schema/index.ts'
import type { ChangeEffects, RecordChange } from '../../shared/changes.ts'
import { DomainError } from '../../shared/errors.ts'
import { failedBlockingCodes } from '../seo/index.ts'
import type { SeoCheckResult, SeoInput, SeoWorld, WorldPost } from '../seo/types.ts'
import type { AutofixOutcome } from '../seo/autofix.ts'
import { factsHold, likelyFacts, runSeoJob, worldFacts, type SeoJob } from '../seo/world-facts.ts'
import { postByCurrentSlug, slugHolder, type PostRow } from './repo.ts'

/** Publishing refused while a blocking SEO item fails (spec §7, seo-rules.md §3). */
export class SeoBlocked extends DomainError {
  constructor(result: SeoCheckResult) {
    const failedItems = failedBlockingCodes(result)
    const failures = result.items
      .filter((item) => item.blocking && !item.passed)
      .map(({ code, targetField, message, fixAction, autoFixType }) => ({ code, targetField, message, fixAction, autoFixType }))
    super('BLOG_SEO_BLOCKED', 400, `The draft cannot be published because blocking checks failed: ${failedItems.join(', ')}.`, {
      canPublish: false,
      failedItems,
      failures,
      score: result.score,
      aeoScore: result.aeoScore,
    })
  }
}

const worldPost = (row: PostRow | undefined): WorldPost | undefined =>
  row && { id: row.id, language: row.language, slug: row.slug, alternateSlug: row.alternateSlug }

/** Which of the input's media keys (`keys`, when the caller has them already) exist in the store; asked before the (synchronous) check. */
export async function existingMediaKeys(ctx: Ctx, input: SeoInput, keys?: readonly string[]): Promise<Set<string>> {
  keys ??= await ctx.seo.run('mediaKeys', { input, mediaUrl: ctx.config.mediaUrl })
  const found = await Promise.all(keys.map(async (key) => ((await ctx.mediaExists(key)) ? key : null)))
  return new Set(found.filter((key): key is string => key !== null))
}

/** The SEO world read from SQLite, inside the caller's transaction when there is one. */
export function sqliteWorld(ctx: Ctx, db: Queryable, mediaKeys: ReadonlySet<string>): SeoWorld {
  return {
    siteUrl: ctx.config.siteUrl,
    mediaUrl: ctx.config.mediaUrl,
    mediaKeys,
    postBySlug: (language, slug) => worldPost(slugHolder(db, language, slug, null)),
    postByCurrentSlug: (language, slug) => worldPost(postByCurrentSlug(db, language, slug)),
    authorStatus: (id) => worldStatements(db).authorStatus.get({ id })?.status,
    category: (id) => worldStatements(db).category.get({ id }),
  }
}

/** The world's own lookups, prepared once: every save and publish asks them twice (before and inside the write). */
const worldStatements = preparedOnce((db) => ({
  authorStatus: db
    .select({ status: authors.status })
    .from(authors)
    .where(eq(authors.id, sql.placeholder('id')))
    .prepare(),
  category: db
    .select({ nameEn: categories.nameEn, nameZh: categories.nameZh })
    .from(categories)
    .where(eq(categories.id, sql.placeholder('id')))
    .prepare(),
}))

/** The publish gate: a check whose blocking items fail refuses the publish. */
export function refuseBlocked(result: SeoCheckResult): SeoCheckResult {
  if (!result.canPublish) throw new SeoBlocked(result)
  return result
}

/** A job on `input` with the world facts read from `db` now, on this thread. */
function seoJob(ctx: Ctx, db: Queryable, task: SeoJob['task'], input: SeoInput, mediaKeys: ReadonlySet<string>, now = ctx.clock()): SeoJob {
  return { task, input, facts: worldFacts(task, input, sqliteWorld(ctx, db, mediaKeys), now), now: now.getTime() }
}

type JobResult<K extends SeoJob['task']> = K extends 'check' ? SeoCheckResult : AutofixOutcome

/**
 * A job run once on the SEO pool (`ctx.seo`), off this thread: on the facts it will likely ask
 * (read from `db` now, without running a rule here), else, when it asked one more, on every fact
 * worldFacts gathers (running the rules here on the post without its body). Returns the job with
 * the facts its result stands on, for writeChecked's recheck.
 */
async function runJob<K extends SeoJob['task']>(
  ctx: Ctx,
  task: K,
  input: SeoInput,
  mediaKeys: ReadonlySet<string>,
): Promise<{ job: SeoJob; result: JobResult<K> }> {
  const now = ctx.clock()
  const likely: SeoJob = { task, input, facts: likelyFacts(input, sqliteWorld(ctx, ctx.db, mediaKeys)), now: now.getTime() }
  const answered = await ctx.seo.run('answered', likely)
  if (answered) return { job: likely, result: answered as JobResult<K> }
  const job = seoJob(ctx, ctx.db, task, input, mediaKeys, now)
  const result = job.task === 'check' ? await ctx.seo.run('check', job) : await ctx.seo.run('autofix', job)
  return { job, result: result as JobResult<K> }
}

/** The check of `input`: world facts read here, the text passes on the SEO pool, off the request thread. */
export async function runCheck(ctx: Ctx, input: SeoInput): Promise<SeoCheckResult> {
  return (await runJob(ctx, 'check', input, await existingMediaKeys(ctx, input))).result
}

/** Autofix of `input` (seo/autofix.ts), run like runCheck. */
export async function runAutofix(ctx: Ctx, input: SeoInput, mediaKeys?: readonly string[]): Promise<AutofixOutcome> {
  return (await runJob(ctx, 'autofix', input, await existingMediaKeys(ctx, input, mediaKeys))).result
}

/** Checks computed before the write lock that a concurrent write made stale before the recheck inside it. */
const STALE_ATTEMPTS = 3
const stale = Symbol('stale check')

/**
 * A write that stores a check of what it writes, without running the check inside the write lock
 * (SQLite's only one) or on the request thread. `plan` reads what the write will store (and throws
 * its refusals); it runs once before the lock, where the check goes to the SEO pool, and again
 * inside it, where the world facts are read again: when neither the input nor the facts changed
 * meanwhile, the pool's result stands; otherwise a concurrent write got in between and the whole
 * write starts over (after a few tries the check runs inside the lock, as a last resort).
 */
export async function writeChecked<P extends { input: SeoInput }, T>(
  ctx: Ctx,
  plan: (db: Queryable) => P,
  work: (tx: Tx, record: RecordChange, planned: P, seo: SeoCheckResult) => T,
): Promise<{ result: T; effects: ChangeEffects }> {
  // Announced while the check runs, so a render pass about to start lets this write join it.
  const announcement = ctx.changes.expect()
  try {
    for (let attempt = 1; ; attempt++) {
      const first = plan(ctx.db)
      const mediaKeys = await existingMediaKeys(ctx, first.input)
      const { job, result: checked } = await runJob(ctx, 'check', first.input, mediaKeys)
      try {
        return await ctx.changes.write(
          ctx.db,
          (tx, record) => {
            const planned = plan(tx)
            // The same input and the same answers make the same job: the pool's result stands.
            if (Bun.deepEquals(planned.input, job.input, true) && factsHold(job.facts, sqliteWorld(ctx, tx, mediaKeys)))
              return work(tx, record, planned, checked)
            if (attempt < STALE_ATTEMPTS) throw stale
            return work(
              tx,
              record,
              planned,
              runSeoJob(seoJob(ctx, tx, 'check', planned.input, mediaKeys, new Date(job.now))) as SeoCheckResult,
            )
          },
          announcement,
        )
      } catch (error) {
        if (error !== stale) throw error
      }
    }
  } finally {
    announcement.settle()
  }
}

/** The stored post as the rules read it. */
export const seoInputOf = (row: PostRow): SeoInput => ({
  id: row.id,
  language: row.language,
  title: row.title,
  contentHtml: row.contentHtml,
  categoryId: row.categoryId,
  summary: row.summary,
  slug: row.slug,
  alternateSlug: row.alternateSlug,
  coverImage: row.coverImage,
  coverAlt: row.coverAlt,
  ogImage: row.ogImage,
  authorId: row.authorId,
  author: row.author,
  seoTitle: row.seoTitle,
  seoDescription: row.seoDescription,
  canonicalUrl: row.canonicalUrl,
  robots: row.robots,
  indexable: row.indexable,
  answerSummary: row.answerSummary,
  keyTakeaways: row.keyTakeaways,
  faqBlocks: row.faqBlocks,
  reviewedAt: row.reviewedAt,
})
