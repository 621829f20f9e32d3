import { API } from '../artifacts/paths.ts'
import { inArray } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { posts } from '../../db/schema/index.ts'
import { nameIn, type Language, postUrl } from '../../shared/language.ts'
import { parseTime } from '../../shared/time.ts'
import { mimeForExt } from '../media/detect.ts'
import type { ImageLookup } from '../media/responsive.ts'
import type { PostCard } from '../posts/model.ts'
import { ATOM_NS, renderRss } from '../artifacts/render/rss.ts'
import { w3cTime } from '../artifacts/render/sitemap.ts'
import { el, xmlDocument } from '../artifacts/render/xml.ts'
import { absolute, HTML_LANG } from './head.ts'
import { feedOf, type Publication, type SnapshotReads } from './snapshot.ts'
import { urlPathOf, type FeedFormat, type ListScope } from './targets.ts'

/**
 * The feeds of one list (a language's home, a category, a tag, an author; the API's RSS is the
 * home's) in three formats from one item list, each item with the post's full body, its author
 * and its cover. Dates are the posts' own, never "now", so an unchanged feed keeps its bytes.
 */
export interface Feed {
  title: string
  description: string
  language: Language
  /** The publication, the feed's author where an entry names none (Atom wants one, RFC 4287 §4.1.1). */
  publisher: string
  home: string
  self: string
  /** WEBSUB_HUB: named in the feed (rel="hub", JSON Feed `hubs`) when set, nothing when not (docs/discovery.md). */
  hub?: string | null
  items: FeedItem[]
}

interface FeedItem {
  /** A tag URI (RFC 4151) of the site's host: unique across installs, stable across slug changes. */
  id: string
  url: string
  title: string
  summary: string
  contentHtml: string
  author: { name: string; url: string }
  published: string
  updated: string
  image: FeedImage | null
  /** The category and the tags by name, each name once. */
  tags: string[]
}

/**
 * A cover as feeds name it: for one of our uploads its largest variant (as og:image does: the
 * original may carry the camera's metadata), with that file's type and bytes; `size` null for an
 * image from elsewhere or one whose variants are not made yet (RSS then gets no `enclosure`,
 * whose length is required, only `media:content`).
 */
type FeedImage = { url: string; type: string; alt: string; size: number | null }

function feedImage(siteUrl: string, card: PostCard, images: ImageLookup): FeedImage | null {
  const url = absolute(siteUrl, card.coverImage)
  if (!url) return null
  const image = images(card.coverImage)
  if (image) return { url: image.src, type: image.type, alt: card.coverAlt, size: image.size }
  return { url, type: mimeForExt(url.split('?')[0]!.split('.').pop()!.toLowerCase()) ?? '', alt: card.coverAlt, size: null }
}

/** `tag:host,YYYY-MM-DD:post-N`: the date is the post's creation day, which never changes. */
const postTagUri = (siteUrl: string, card: Pick<PostCard, 'id' | 'createTime'>) =>
  `tag:${new URL(siteUrl).hostname},${card.createTime.slice(0, 10)}:post-${card.id}`

/** Names once each, the first spelling kept: a tag named like the category (in any case) is not repeated. */
export const uniqueNames = (names: string[]) => {
  const seen = new Set<string>()
  return names.filter((name) => name && !seen.has(name.toLowerCase()) && seen.add(name.toLowerCase()))
}

function itemOf(pub: Publication, card: PostCard, contentHtml: string, images: ImageLookup): FeedItem {
  const { language, siteUrl } = pub
  const profile = card.authorProfile
  return {
    id: postTagUri(siteUrl, card),
    url: postUrl(siteUrl, language, card.slug),
    title: card.title,
    summary: card.summary,
    contentHtml,
    author: {
      name: profile?.name || card.author || pub.name,
      url: profile ? `${siteUrl}${urlPathOf({ kind: 'page.list', language, scope: { kind: 'author', slug: profile.slug }, page: 1 })}` : '',
    },
    published: card.publishedAt ?? card.updatedTime,
    updated: card.updatedTime,
    image: feedImage(siteUrl, card, images),
    tags: uniqueNames([...(card.category ? [nameIn(language, card.category)] : []), ...card.tags.map((t) => nameIn(language, t))]),
  }
}

/** The bodies of a snapshot's feed posts, read once per snapshot whatever the number of feeds showing them. */
const bodiesOf = new WeakMap<SnapshotReads, Map<number, string>>()

function bodies(db: Queryable, reads: SnapshotReads, ids: number[]): Map<number, string> {
  let known = bodiesOf.get(reads)
  if (!known) bodiesOf.set(reads, (known = new Map()))
  const missing = ids.filter((id) => !known.has(id))
  if (missing.length)
    for (const row of db.select({ id: posts.id, html: posts.contentHtml }).from(posts).where(inArray(posts.id, missing)).all())
      known.set(row.id, row.html)
  return known
}

/** The feed of one list in one format, or null when the list does not exist. */
export function feedFor(
  db: Queryable,
  reads: SnapshotReads,
  language: Language,
  scope: ListScope,
  format: FeedFormat,
  hub: string | null = null,
): Feed | null {
  const found = feedOf(reads, language, scope)
  if (!found) return null
  const pub = reads.publication(language)
  const { info, cards } = found
  const html = bodies(
    db,
    reads,
    cards.map((c) => c.id),
  )
  return {
    title: scope.kind === 'home' ? pub.name : `${info.name} · ${pub.name}`,
    description: (scope.kind === 'home' ? pub.description : info.description) || pub.name,
    language,
    publisher: pub.name,
    home: `${pub.siteUrl}${urlPathOf({ kind: 'page.list', language, scope, page: 1 })}`,
    self: `${pub.siteUrl}${urlPathOf({ kind: 'page.feed', language, scope, format })}`,
    hub,
    items: cards.map((card) => itemOf(pub, card, html.get(card.id) ?? '', reads.image)),
  }
}

export const rssOf = (feed: Feed) =>
  renderRss(
    {
      title: feed.title,
      link: feed.home,
      description: feed.description,
      language: HTML_LANG[feed.language],
      selfUrl: feed.self,
      hubUrl: feed.hub,
    },
    feed.items.map((item) => ({
      title: item.title,
      link: item.url,
      guid: item.id,
      pubDate: parseTime(item.published) ?? new Date(0),
      description: item.summary,
      contentHtml: item.contentHtml,
      creator: item.author.name,
      image: item.image,
      categories: item.tags,
    })),
  )

const atomPerson = (tag: string, person: { name: string; url: string }) =>
  el(tag, {}, el('name', {}, person.name), person.url ? el('uri', {}, person.url) : undefined)

/** Atom 1.0 (RFC 4287): `updated` is the newest entry's; every entry has an author, the feed the publication. */
export function atomOf(feed: Feed): string {
  const newest = feed.items.reduce((max, item) => (item.updated > max ? item.updated : max), '')
  return xmlDocument(
    el(
      'feed',
      { xmlns: ATOM_NS, 'xml:lang': HTML_LANG[feed.language] },
      el('title', {}, feed.title),
      el('subtitle', {}, feed.description),
      el('id', {}, feed.self),
      el('link', { rel: 'self', type: 'application/atom+xml', href: feed.self }),
      feed.hub ? el('link', { rel: 'hub', href: feed.hub }) : undefined,
      el('link', { rel: 'alternate', type: 'text/html', href: feed.home }),
      el('updated', {}, newest ? w3cTime(newest) : '1970-01-01T00:00:00Z'),
      atomPerson('author', { name: feed.publisher, url: feed.home }),
      ...feed.items.map((item) =>
        el(
          'entry',
          {},
          el('title', {}, item.title),
          el('id', {}, item.id),
          el('link', { rel: 'alternate', type: 'text/html', href: item.url }),
          item.image
            ? el('link', {
                rel: 'enclosure',
                type: item.image.type || undefined,
                href: item.image.url,
                length: item.image.size === null ? undefined : String(item.image.size),
              })
            : undefined,
          el('published', {}, w3cTime(item.published)),
          el('updated', {}, w3cTime(item.updated)),
          atomPerson('author', item.author),
          el('summary', {}, item.summary),
          el('content', { type: 'html' }, item.contentHtml),
          ...item.tags.map((term) => el('category', { term })),
        ),
      ),
    ),
  )
}

/** JSON Feed 1.1 (jsonfeed.org/version/1.1): `content_html` is required of every item, with the summary beside it. */
export function jsonFeedOf(feed: Feed): string {
  const body = {
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    description: feed.description,
    language: HTML_LANG[feed.language],
    home_page_url: feed.home,
    feed_url: feed.self,
    ...(feed.hub ? { hubs: [{ type: 'WebSub', url: feed.hub }] } : {}),
    authors: [{ name: feed.publisher, url: feed.home }],
    items: feed.items.map((item) => ({
      id: item.id,
      url: item.url,
      title: item.title,
      content_html: item.contentHtml,
      summary: item.summary,
      ...(item.image ? { image: item.image.url } : {}),
      ...(item.image?.size != null
        ? {
            attachments: [
              { url: item.image.url, mime_type: item.image.type, size_in_bytes: item.image.size, title: item.image.alt || undefined },
            ],
          }
        : {}),
      date_published: w3cTime(item.published),
      date_modified: w3cTime(item.updated),
      authors: [item.author.url ? item.author : { name: item.author.name }],
      ...(item.tags.length ? { tags: item.tags } : {}),
    })),
  }
  return `${JSON.stringify(body, null, 2)}\n`
}

export const FEED_RENDERERS: Record<FeedFormat, (feed: Feed) => string> = { rss: rssOf, atom: atomOf, json: jsonFeedOf }

/**
 * The API's RSS (spec: `/api/v1/blog/rss.xml?language=`): the language's home feed, under the
 * publication's name and linking the site's home, with its own self URL.
 */
export function apiRss(db: Queryable, reads: SnapshotReads, language: Language): string {
  const feed = feedFor(db, reads, language, { kind: 'home' }, 'rss')!
  return rssOf({ ...feed, self: `${reads.publication(language).siteUrl}${API}/rss.xml?language=${language}` })
}
