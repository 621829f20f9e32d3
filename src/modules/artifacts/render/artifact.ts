import type { Queryable } from '../../../db/client.ts'
import { preparedOnce } from '../../../db/prepared.ts'
import { envelopeBody, success } from '../../../http/envelope.ts'
import { DomainError } from '../../../shared/errors.ts'
import { authorDetail, listEnabledAuthors } from '../../authors/authors.ts'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { posts } from '../../../db/schema/index.ts'
import { LANGUAGES, otherLanguage, type Language } from '../../../shared/language.ts'
import type { PostRes } from '../../posts/model.ts'
import { toPostResMany } from '../../posts/present.ts'
import type { PostRow } from '../../posts/repo.ts'
import { isDiscoverable } from '../../posts/visibility.ts'
import { publicationSettings } from '../../settings/settings.ts'
import { listEnabledCategories } from '../../taxonomy/categories.ts'
import { listEnabledTags } from '../../taxonomy/tags.ts'
import { PAGE_SIZE, type Target } from '../paths.ts'
import { partnerSlugsOf, sitemapData, sitemapShard, sitemapUrl, type SiteOptions } from '../snapshot.ts'
import { renderRobots } from './robots.ts'
import { renderSitemapIndex, renderUrlset } from './sitemap.ts'
import { postPageHtml, readsOf, renderSiteTarget } from '../../site/render.tsx'
import { apiRss } from '../../site/feeds.ts'
import { renderMarkdownTwin } from '../../site/markdown.ts'
import { postExtrasOfMany } from '../../site/neighbours.ts'
import { type PostPage, type SnapshotReads } from '../../site/snapshot.ts'

export interface RenderSource extends SiteOptions {
  db: Queryable
  /** The OpenAPI document, serialized once at start. */
  openapi: string
}

/** An envelope read exactly as the API answers it; a read the API refuses (404, 400) has no artifact. */
function answer(read: () => unknown): string | null {
  try {
    return envelopeBody(success(read()))
  } catch (error) {
    if (error instanceof DomainError) return null
    throw error
  }
}

/** The artifacts made of one post: its JSON detail, its page and the page's Markdown twin. */
type PostTarget = Extract<Target, { kind: 'post' | 'page.post' | 'page.twin' }>
const POST_KINDS = new Set<Target['kind']>(['post', 'page.post', 'page.twin'])
const isPostTarget = (t: Target): t is PostTarget => POST_KINDS.has(t.kind)
const keyOf = (t: { language: Language; slug: string }) => `${t.language}:${t.slug}`

/**
 * The live posts of a language with these slugs (a JSON array), one seek each of the
 * `(language, lower(slug))` index: a plain `slug in (…)` cannot use that index, and SQLite read
 * every post of the language per batch instead (~20 ms at 10,000 posts).
 */
export const postsBySlug = preparedOnce((db) => {
  const slugs = sql.placeholder('slugs')
  return db
    .select()
    .from(posts)
    .where(
      and(
        eq(posts.language, sql.placeholder('language')),
        sql`lower(${posts.slug}) in (select lower(value) from json_each(${slugs}))`,
        sql`${posts.slug} in (select value from json_each(${slugs}))`,
        isNull(posts.deletedAt),
      ),
    )
    .prepare()
})

/** The posts a read snapshot has read, by `language:slug` (null: none discoverable), kept across the kinds rendering from it. */
export type PostCache = Map<string, { row: PostRow; post: PostRes } | null>

/**
 * Reads the posts of a whole batch into the snapshot's cache, each once whatever artifacts (and
 * kinds) show it: the rows in one query per language, then their embeds and related posts
 * together (`toPostResMany`), instead of a handful of queries per post and per artifact. Only
 * discoverable posts are pre-rendered; a noindex post is answered by the API alone.
 */
function readPosts(db: Queryable, targets: readonly PostTarget[], cache: PostCache): void {
  const rows: PostRow[] = []
  for (const language of LANGUAGES) {
    const slugs = [...new Set(targets.filter((t) => t.language === language && !cache.has(keyOf(t))).map((t) => t.slug))]
    if (!slugs.length) continue
    for (const slug of slugs) cache.set(keyOf({ language, slug }), null)
    for (const row of postsBySlug(db).all({ language, slugs: JSON.stringify(slugs) })) if (isDiscoverable(row)) rows.push(row)
  }
  const details = toPostResMany(db, rows)
  rows.forEach((row, i) => cache.set(keyOf(row), { row, post: details[i]! }))
}

/**
 * The bytes of many artifacts from one snapshot: the posts' artifacts in batches, the rest one by
 * one, all of them sharing the snapshot's reads (each list counted and read once, each card built
 * once, the publication and navigation read once). `reads` and `posts`, when given, are the
 * snapshot's, shared with the other kinds rendering from it.
 */
export function renderTargets(
  src: RenderSource & { reads?: SnapshotReads; posts?: PostCache },
  targets: readonly Target[],
): (string | null)[] {
  const pass = { ...src, reads: readsOf(src) }
  const posts: PostCache = src.posts ?? new Map()
  readPosts(src.db, targets.filter(isPostTarget), posts)
  // The pages' partners and next posts, each read for the whole batch in one statement (seeks of
  // their indexes per post: a read of every post per batch made a full rebuild grow with the
  // square of the site).
  const pages = targets.flatMap((t) => (t.kind === 'page.post' ? [posts.get(keyOf(t))] : [])).filter((found) => !!found)
  const partners = partnerSlugsOf(
    src.db,
    pages.map((found) => found.row.id),
  )
  const extras = postExtrasOfMany(
    src.db,
    pages.map((found) => found.post),
  )
  return targets.map((t) => {
    if (!isPostTarget(t)) return renderOther(pass, t)
    const found = posts.get(keyOf(t))
    if (!found) return null
    if (t.kind === 'post') return envelopeBody(success(found.post))
    if (t.kind === 'page.twin') return renderMarkdownTwin(src.siteUrl, found.post)
    const slug = partners.get(found.row.id) ?? null
    const partner = slug === null ? null : { language: otherLanguage(found.row.language), slug }
    const page: PostPage = { post: found.post, partner, noindex: false }
    const { reads } = pass
    return postPageHtml(
      reads.publication(t.language),
      reads.nav(),
      page,
      extras.get(found.post.id)!,
      reads.pageNav(t.language),
      reads.image,
    )
  })
}

/**
 * The bytes of one artifact, read from the database through the same functions the API's routes
 * call, or null when the artifact must not exist (unpublished post, disabled author, …).
 */
export const renderTarget = (src: RenderSource, target: Target): string | null => renderTargets(src, [target])[0]!

function renderOther(src: RenderSource & { reads: SnapshotReads }, target: Exclude<Target, PostTarget>): string | null {
  const { db, reads } = src
  switch (target.kind) {
    case 'posts': {
      const filter = target.filter ?? {}
      const query = { language: target.language ?? undefined, current: target.page, size: PAGE_SIZE.posts, ...filter }
      return answer(() => reads.lists.page(query))
    }
    case 'categories':
      return answer(() => listEnabledCategories(db))
    case 'tags':
      return answer(() => listEnabledTags(db, target.language ?? undefined))
    case 'authors':
      return answer(() => listEnabledAuthors(db, target.language ?? undefined))
    case 'author':
      return answer(() => authorDetail(db, target.slug, target.language))
    case 'authorPosts': {
      // The same enabled author, found once per snapshot, that the site's author list shows.
      const author = reads.scope(target.language, { kind: 'author', slug: target.slug })
      return (
        author &&
        answer(() => reads.lists.page({ ...author.filter, language: target.language, current: target.page, size: PAGE_SIZE.authorPosts }))
      )
    }
    case 'settings':
      return answer(() => publicationSettings(db))
    case 'rss': {
      return apiRss(db, reads, target.language)
    }
    case 'sitemap': {
      const data = sitemapData(db, src, reads.sitemapRows, reads.postShards)
      return data.kind === 'urlset' ? renderUrlset(data.entries) : renderSitemapIndex(data.shards)
    }
    case 'sitemapShard': {
      const entries = sitemapShard(db, src, target.shard, reads.sitemapRows)
      return entries ? renderUrlset(entries) : null
    }
    case 'robots':
      return renderRobots(sitemapUrl(src.siteUrl))
    case 'openapi':
      return src.openapi
    default:
      return renderSiteTarget(src, target)
  }
}
