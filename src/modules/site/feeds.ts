import type { Language } from '../../shared/language.ts'
import { parseTime } from '../../shared/time.ts'
import type { PostCard } from '../posts/model.ts'
import { ATOM_NS, renderRss } from '../artifacts/render/rss.ts'
import { w3cTime } from '../artifacts/render/sitemap.ts'
import { el, xmlDocument } from '../artifacts/render/xml.ts'
import { absolute, HTML_LANG } from './head.ts'
import type { Publication, ScopeInfo } from './snapshot.ts'
import { type FeedFormat, postUrl, urlPathOf } from './targets.ts'

/**
 * The site's feeds of one list (a language's home, a category, a tag, an author) in three
 * formats from one item list. Dates are the posts' own, never "now", so an unchanged feed keeps
 * its bytes. RSS goes through the same renderer as the API's feed.
 */
export interface Feed {
  title: string
  description: string
  language: Language
  home: string
  self: string
  items: { id: string; url: string; title: string; summary: string; published: string; updated: string; image: string; tags: string[] }[]
}

const nameIn = (language: Language, n: { nameEn: string; nameZh: string }) =>
  language === 'zh' ? n.nameZh || n.nameEn : n.nameEn || n.nameZh

export function feedOfCards(pub: Publication, info: ScopeInfo, cards: readonly PostCard[], format: FeedFormat): Feed {
  const { language } = pub
  const scope = info.scope
  return {
    title: scope.kind === 'home' ? pub.name : `${info.name} · ${pub.name}`,
    description: (scope.kind === 'home' ? pub.description : info.description) || pub.name,
    language,
    home: `${pub.siteUrl}${urlPathOf({ kind: 'page.list', language, scope, page: 1 })}`,
    self: `${pub.siteUrl}${urlPathOf({ kind: 'page.feed', language, scope, format })}`,
    items: cards.map((card) => ({
      id: `folio-post-${card.id}`,
      url: postUrl(pub.siteUrl, language, card.slug),
      title: card.title,
      summary: card.summary,
      published: card.publishedAt ?? card.updatedTime,
      updated: card.updatedTime,
      image: absolute(pub.siteUrl, card.coverImage),
      tags: [...(card.category ? [nameIn(language, card.category)] : []), ...card.tags.map((t) => nameIn(language, t))].filter(Boolean),
    })),
  }
}

export const rssOf = (feed: Feed) =>
  renderRss(
    { title: feed.title, link: feed.home, description: feed.description, language: HTML_LANG[feed.language], selfUrl: feed.self },
    feed.items.map((item) => ({
      title: item.title,
      link: item.url,
      guid: item.id,
      pubDate: parseTime(item.published) ?? new Date(0),
      description: item.summary,
      categories: item.tags,
    })),
  )

/** Atom 1.0 (RFC 4287): `updated` is the newest entry's, ids are stable tag-like URNs. */
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
      el('link', { rel: 'alternate', type: 'text/html', href: feed.home }),
      el('updated', {}, newest ? w3cTime(newest) : '1970-01-01T00:00:00Z'),
      ...feed.items.map((item) =>
        el(
          'entry',
          {},
          el('title', {}, item.title),
          el('id', {}, `urn:folio:${item.id}`),
          el('link', { rel: 'alternate', type: 'text/html', href: item.url }),
          el('published', {}, w3cTime(item.published)),
          el('updated', {}, w3cTime(item.updated)),
          el('summary', {}, item.summary),
          ...item.tags.map((term) => el('category', { term })),
        ),
      ),
    ),
  )
}

/** JSON Feed 1.1 (jsonfeed.org). */
export function jsonFeedOf(feed: Feed): string {
  const body = {
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    description: feed.description,
    language: HTML_LANG[feed.language],
    home_page_url: feed.home,
    feed_url: feed.self,
    items: feed.items.map((item) => ({
      id: item.id,
      url: item.url,
      title: item.title,
      summary: item.summary,
      ...(item.image ? { image: item.image } : {}),
      date_published: w3cTime(item.published),
      date_modified: w3cTime(item.updated),
      ...(item.tags.length ? { tags: item.tags } : {}),
    })),
  }
  return `${JSON.stringify(body, null, 2)}\n`
}

export const FEED_RENDERERS: Record<FeedFormat, (feed: Feed) => string> = { rss: rssOf, atom: atomOf, json: jsonFeedOf }
