import type { Queryable } from '../../../db/client.ts'
import { envelopeBody, success } from '../../../http/envelope.ts'
import { DomainError } from '../../../shared/errors.ts'
import { authorDetail, enabledAuthorBySlug, listEnabledAuthors } from '../../authors/authors.ts'
import { toPostRes } from '../../posts/present.ts'
import { listPublicPosts } from '../../posts/public.ts'
import { postByCurrentSlug } from '../../posts/repo.ts'
import { isDiscoverable } from '../../posts/visibility.ts'
import { publicationSettings } from '../../settings/settings.ts'
import { listEnabledCategories } from '../../taxonomy/categories.ts'
import { listEnabledTags } from '../../taxonomy/tags.ts'
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

function postDetail(db: Queryable, target: Extract<Target, { kind: 'post' }>): string | null {
  const row = postByCurrentSlug(db, target.language, target.slug)
  // Only discoverable posts are pre-rendered; a noindex post is answered by the API alone.
  if (!row || row.slug !== target.slug || !isDiscoverable(row)) return null
  return envelopeBody(success(toPostRes(db, row)))
}

/**
 * The bytes of one artifact, read from the database through the same functions the API's routes
 * call, or null when the artifact must not exist (unpublished post, disabled author, …).
 */
export function renderTarget(src: RenderSource, target: Target): string | null {
  const { db } = src
  switch (target.kind) {
    case 'post':
      return postDetail(db, target)
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
