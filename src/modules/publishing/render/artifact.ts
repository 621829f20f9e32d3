import type { Queryable } from '../../../db/client.ts'
import { envelopeBody, success } from '../../../http/envelope.ts'
import { DomainError } from '../../../shared/errors.ts'
import { authorDetail, enabledAuthorBySlug, listEnabledAuthors } from '../../authors/authors.ts'
import { and, eq, inArray, isNull } from 'drizzle-orm'
import { posts } from '../../../db/schema/index.ts'
import { LANGUAGES } from '../../../shared/language.ts'
import { toPostResMany } from '../../posts/present.ts'
import { listPublicPosts } from '../../posts/public.ts'
import type { PostRow } from '../../posts/repo.ts'
import { isDiscoverable } from '../../posts/visibility.ts'
import { publicationSettings } from '../../settings/settings.ts'
import { listEnabledCategories } from '../../taxonomy/categories.ts'
import { listEnabledTags } from '../../taxonomy/tags.ts'
import { chunks } from '../jobs.ts'
import { PAGE_SIZE, type Target } from '../paths.ts'
import { rssData, sitemapData, sitemapShard, sitemapUrl, type SiteOptions } from '../snapshot.ts'
import { renderRobots } from './robots.ts'
import { renderRss } from './rss.ts'
import { renderSitemapIndex, renderUrlset } from './sitemap.ts'
import { renderSiteTarget } from '../../site/render.tsx'

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


type PostTarget = Extract<Target, { kind: 'post' }>

/**
 * Post details of a whole batch: the posts in one query per language, then their embeds and
 * related posts together (`toPostResMany`), instead of a handful of queries per post.
 */
function postDetails(db: Queryable, targets: readonly PostTarget[]): (string | null)[] {
  const rows = new Map<string, PostRow>()
  for (const language of LANGUAGES) {
    const slugs = targets.filter((t) => t.language === language).map((t) => t.slug)
    for (const part of chunks(slugs))
      for (const row of db
        .select()
        .from(posts)
        .where(and(eq(posts.language, language), inArray(posts.slug, part), isNull(posts.deletedAt)))
        .all())
        rows.set(`${language}:${row.slug}`, row)
  }
  // Only discoverable posts are pre-rendered; a noindex post is answered by the API alone.
  const shown = targets.map((t) => rows.get(`${t.language}:${t.slug}`)).map((row) => (row && isDiscoverable(row) ? row : null))
  const details = toPostResMany(db, shown.filter((row) => row !== null))
  let next = 0
  return shown.map((row) => (row ? envelopeBody(success(details[next++])) : null))
}

/** The bytes of many artifacts from one snapshot: post details in batches, the rest one by one. */
export function renderTargets(src: RenderSource, targets: readonly Target[]): (string | null)[] {
  const details = targets.filter((t): t is PostTarget => t.kind === 'post')
  const rendered = postDetails(src.db, details)
  const byTarget = new Map(details.map((t, i) => [t, rendered[i]!]))
  return targets.map((t) => (t.kind === 'post' ? byTarget.get(t)! : renderTarget(src, t)))
}

/**
 * The bytes of one artifact, read from the database through the same functions the API's routes
 * call, or null when the artifact must not exist (unpublished post, disabled author, …).
 */
export function renderTarget(src: RenderSource, target: Target): string | null {
  const { db } = src
  switch (target.kind) {
    case 'post':
      return postDetails(db, [target])[0]!
    case 'posts': {
      const filter = target.filter ?? {}
      const query = { language: target.language ?? undefined, current: target.page, size: PAGE_SIZE.posts, ...filter }
      return answer(() => listPublicPosts(db, query))
    }
    case 'categories':
      return answer(() => listEnabledCategories(db))
    case 'tags':
      return answer(() => listEnabledTags(db, target.language ?? undefined))
    case 'authors':
      return answer(() => listEnabledAuthors(db, target.language ?? undefined))
    case 'author':
      return answer(() => authorDetail(db, target.slug, target.language))
    case 'authorPosts':
      return answer(() => {
        const author = enabledAuthorBySlug(db, target.slug, target.language)
        return listPublicPosts(db, { authorId: author.id, language: target.language, current: target.page, size: PAGE_SIZE.authorPosts })
      })
    case 'settings':
      return answer(() => publicationSettings(db))
    case 'rss': {
      const { channel, items } = rssData(db, src.siteUrl, target.language)
      return renderRss(channel, items)
    }
    case 'sitemap': {
      const data = sitemapData(db, src)
      return data.kind === 'urlset' ? renderUrlset(data.entries) : renderSitemapIndex(data.shards)
    }
    case 'sitemapShard': {
      const entries = sitemapShard(db, src, target.shard)
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
