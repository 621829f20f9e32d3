import { and, eq, ne, sql } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { posts } from '../../db/schema/index.ts'
import type { ChangeEffects } from '../../shared/changes.ts'
import { formatTime } from '../../shared/time.ts'
import { statusEvent } from './lifecycle.ts'
import { publicationTime } from './publication-time.ts'
import type { PublishRes } from './model.ts'
import { toWriterPostRes } from './present.ts'
import { livePost } from './repo.ts'
import { refuseBlocked, seoInputOf, writeChecked } from './seo.ts'
import { expectVersion, nextVersion } from './version.ts'
import { POST_STATUS } from './visibility.ts'

/** The publish itself, prepared once (db/prepared.ts): every publish runs it. */
const statements = preparedOnce((db) => ({
  // The status and version guards close the race between two publishers: only one flips the row.
  publish: db
    .update(posts)
    .set({
      status: POST_STATUS.published,
      publishedAt: sql`${sql.placeholder('publishedAt')}`,
      seoScore: sql`${sql.placeholder('seoScore')}`,
      aeoScore: sql`${sql.placeholder('aeoScore')}`,
      updatedAt: sql`${sql.placeholder('updatedAt')}`,
      ...nextVersion,
    })
    .where(and(eq(posts.id, sql.placeholder('id')), ne(posts.status, POST_STATUS.published), eq(posts.version, sql.placeholder('version'))))
    .returning()
    .prepare(),
}))

/**
 * `POST posts/{id}/publish` and `operate status=1`: re-runs the SEO check on the saved post and
 * publishes it only when no blocking item fails. Publishing a published post changes nothing and
 * reports nothing refreshed, so a retried call is harmless. With `expected` (If-Match) it
 * publishes only that version of the post.
 */
export async function publishPost(
  ctx: Ctx,
  id: number,
  expected: number | null = null,
): Promise<PublishRes & Pick<ChangeEffects, 'artifactsFailed'>> {
  const plan = (db: Queryable) => {
    const before = livePost(db, id)
    expectVersion(before, expected)
    return { before, input: seoInputOf(before) }
  }
  const { result, effects } = await writeChecked(ctx, plan, (tx, record, { before }, checked) => {
    const seo = refuseBlocked(checked)
    const now = formatTime(ctx.clock())
    const after = statements(tx).publish.get({
      id,
      version: before.version,
      publishedAt: before.publishedAt ?? publicationTime(tx, now),
      seoScore: seo.score,
      aeoScore: seo.aeoScore,
      updatedAt: now,
    })
    if (!after) return before
    record({ kind: 'post', event: statusEvent(before, after), before, after })
    return after
  })
  return { ...toWriterPostRes(ctx.db, result), ...effects }
}

const NOTHING: ChangeEffects = { sitemapUpdated: false, rssUpdated: false, webhookQueued: false, artifactsFailed: 0 }

/** `operate status=2`: takes a post offline; its SEO history stays. */
export async function takeOffline(ctx: Ctx, id: number): Promise<ChangeEffects> {
  const { effects } = await ctx.changes.write(ctx.db, (tx, record) => {
    const before = livePost(tx, id)
    const after = tx
      .update(posts)
      .set({ status: POST_STATUS.offline, updatedAt: formatTime(ctx.clock()), ...nextVersion })
      .where(and(eq(posts.id, id), ne(posts.status, POST_STATUS.offline)))
      .returning()
      .get()
    if (after) record({ kind: 'post', event: statusEvent(before, after), before, after })
  })
  return effects
}

/** `GET posts/operate` (spec §4.1): status 1 publishes through the gate, 2 takes offline; answers what it refreshed. */
export async function operatePost(ctx: Ctx, id: number, status: 1 | 2): Promise<ChangeEffects> {
  if (status !== POST_STATUS.published) return takeOffline(ctx, id)
  const { artifactsFailed } = await publishPost(ctx, id)
  return { ...NOTHING, artifactsFailed }
}

/** `GET posts/delete`: removed from public discovery, kept in the database for history. */
export async function deletePost(ctx: Ctx, id: number): Promise<ChangeEffects> {
  const { effects } = await ctx.changes.write(ctx.db, (tx, record) => {
    const before = livePost(tx, id)
    const now = formatTime(ctx.clock())
    const after = tx
      .update(posts)
      .set({ deletedAt: now, updatedAt: now, ...nextVersion })
      .where(eq(posts.id, id))
      .returning()
      .get()
    record({ kind: 'post', event: 'blog.post.deleted', before, after })
  })
  return effects
}
