import type { Queryable } from '../../db/client.ts'
import { LANGUAGES, type Language } from '../../shared/language.ts'
import { renderRobots } from '../artifacts/render/robots.ts'
import { ASSETS } from './assets.ts'
import { FEED_RENDERERS, feedFor } from './feeds.ts'
import { listHead, plainHead, postHead, productHead } from './head.ts'
import { renderMarkdownTwin } from './markdown.ts'
import { NO_EXTRAS, postExtrasOf, type PostExtras } from './neighbours.ts'
import { siteSitemapIndex, sitePagesShard, sitePostShard } from './sitemap.ts'
import {
  listPageOf,
  livePostPageOf,
  postPageOf,
  productOf,
  publishedCards,
  snapshotReads,
  type PostPage,
  type Publication,
  type SnapshotReads,
} from './snapshot.ts'
import type { CategoryRes } from '../taxonomy/model.ts'
import { htmlDocument, type Chrome } from './templates/layout.tsx'
import { ListPageView, listTitle } from './templates/list.tsx'
import { NotFoundPageView, ProductPageView, RootPageView } from './templates/pages.tsx'
import { PostPageView } from './templates/post.tsx'
import { WORDS } from './templates/words.ts'
import { urlPathOf, type SiteTarget } from './targets.ts'
import { markdownLine } from '../../shared/markdown-text.ts'
import { standaloneHtml, standaloneOf, standaloneSitemap, standaloneTwin } from './standalone.tsx'
import { NO_PAGE_NAV, type PageNav } from './page-nav.ts'
import { noImages, type ImageLookup } from '../media/responsive.ts'

export interface SiteSource {
  db: Queryable
  siteUrl: string
  sitemapShardSize: number
  /** MEDIA_URL, when it is not `<SITE_URL>/media`: which images are our uploads. */
  mediaUrl?: string
  /** What the artifacts of one read snapshot share; made for the one artifact when absent. */
  reads?: SnapshotReads
  /** WEBSUB_HUB, which the site's feeds name (docs/discovery.md). */
  webSubHub?: string | null
}

export const readsOf = (src: SiteSource): SnapshotReads => src.reads ?? snapshotReads(src.db, src.siteUrl, src.mediaUrl)

const chromeOf = (reads: SnapshotReads, language: Language, switchTo: Chrome['switchTo'] = null, script = false): Chrome => ({
  pub: reads.publication(language),
  nav: reads.nav(),
  pageNav: reads.pageNav(language),
  switchTo,
  script,
  images: reads.image,
})

/** A post page from plain data alone: the publication, the navigation, the post, its next post and comments. */
export function postPageHtml(
  pub: Publication,
  nav: CategoryRes[],
  page: PostPage,
  extras: PostExtras = NO_EXTRAS,
  pageNav: PageNav = NO_PAGE_NAV,
  images: ImageLookup = noImages,
): string {
  const switchTo = page.partner ? { language: page.partner.language, href: urlPathOf({ kind: 'page.post', ...page.partner }) } : null
  const chrome: Chrome = { pub, nav, pageNav, switchTo, script: true, images }
  const head = postHead(pub, page.post, page.partner, page.noindex)
  return htmlDocument(<PostPageView head={head} chrome={chrome} post={page.post} pub={pub} extras={extras} />)
}

export function renderPostPage(src: SiteSource, page: PostPage): string {
  const { pub, nav, pageNav, images } = chromeOf(readsOf(src), page.post.language as Language)
  return postPageHtml(pub, nav, page, postExtrasOf(src.db, page.post), pageNav, images)
}

/** llms.txt (llmstxt.org): the publication, then every listed post per language, linking its Markdown twin. */
/**
 * Posts per language llms.txt names: the newest. It is rewritten by every publish, so naming every
 * post made each render pass grow with the site (1.4 MB at 5,000 posts, ~140 ms to render and
 * compress); the sitemap and the feeds name the rest.
 */
export const LLMS_POSTS = 200

function renderLlms(src: SiteSource, reads: SnapshotReads): string {
  const pub = reads.publication('en')
  const lines = [`# ${markdownLine(pub.name)}`, '', ...(pub.description ? [`> ${markdownLine(pub.description)}`, ''] : [])]
  for (const language of LANGUAGES) {
    lines.push(`## ${pub.labels[language]}`, '')
    const cards = publishedCards(src.db, language, LLMS_POSTS + 1)
    for (const post of cards.slice(0, LLMS_POSTS)) {
      const twin = `${src.siteUrl}${urlPathOf({ kind: 'page.twin', language, slug: post.slug })}`
      lines.push(`- [${markdownLine(post.title)}](${twin})${post.summary ? `: ${markdownLine(post.summary)}` : ''}`)
    }
    if (cards.length > LLMS_POSTS) lines.push(`- [Every post: the sitemap](${src.siteUrl}${urlPathOf({ kind: 'page.sitemap' })})`)
    lines.push('')
  }
  return lines.join('\n')
}

/** The 404 page's HTML; also what the API answers (with status 404) for an unknown site path. */
export function renderNotFound(src: SiteSource): string {
  const chrome = chromeOf(readsOf(src), 'en')
  const head = plainHead(chrome.pub, WORDS.en.notFound, '', true)
  return htmlDocument(<NotFoundPageView head={head} chrome={chrome} />)
}

/**
 * The bytes of one site artifact, read from the database through the same functions the JSON
 * artifacts use, or null when it must not exist (unpublished post, empty deeper page, …).
 */
export function renderSiteTarget(src: SiteSource, target: SiteTarget): string | null {
  const { db } = src
  const reads = readsOf(src)
  switch (target.kind) {
    case 'page.post': {
      const page = postPageOf(db, target.language, target.slug)
      return page ? renderPostPage(src, page) : null
    }
    case 'page.twin': {
      const page = postPageOf(db, target.language, target.slug)
      return page ? renderMarkdownTwin(src.siteUrl, page.post) : null
    }
    case 'page.list': {
      const list = listPageOf(reads, target.language, target.scope, target.page)
      if (!list) return null
      const chrome = chromeOf(reads, target.language)
      const head = listHead(chrome.pub, list, listTitle(chrome.pub, list))
      return htmlDocument(<ListPageView head={head} chrome={chrome} list={list} pub={chrome.pub} />)
    }
    case 'page.feed': {
      const feed = feedFor(db, reads, target.language, target.scope, target.format, src.webSubHub ?? null)
      return feed && FEED_RENDERERS[target.format](feed)
    }
    case 'page.product': {
      const product = productOf(db, target.language, target.id, target.slug)
      if (!product) return null
      const other = target.language === 'en' ? 'zh' : 'en'
      const chrome = chromeOf(reads, target.language, { language: other, href: product.links[other] })
      return htmlDocument(<ProductPageView head={productHead(chrome.pub, product)} chrome={chrome} product={product} pub={chrome.pub} />)
    }
    case 'page.standalone': {
      const found = standaloneOf(db, target.language, target.slug)
      if (!found) return null
      const pub = reads.publication(target.language)
      return htmlDocument(standaloneHtml(pub, (switchTo) => chromeOf(reads, target.language, switchTo), found.row, found.partner))
    }
    case 'page.standaloneTwin': {
      const found = standaloneOf(db, target.language, target.slug)
      return found && standaloneTwin(src.siteUrl, found.row)
    }
    case 'page.sitemapStandalone':
      return standaloneSitemap(db, src.siteUrl)
    case 'page.root': {
      const chrome = chromeOf(reads, 'en')
      return htmlDocument(<RootPageView head={plainHead(chrome.pub, chrome.pub.name, `${src.siteUrl}/`, false)} chrome={chrome} />)
    }
    case 'page.robots':
      return renderRobots(`${src.siteUrl}${urlPathOf({ kind: 'page.sitemap' })}`)
    case 'page.llms':
      return renderLlms(src, reads)
    case 'page.sitemap':
      return siteSitemapIndex(db, reads.postShards, src.siteUrl, src.sitemapShardSize)
    case 'page.sitemapPages':
      return sitePagesShard(db, src.siteUrl, src.sitemapShardSize, target.shard)
    case 'page.sitemapPosts':
      return sitePostShard(reads.sitemapRows, src.siteUrl, src.sitemapShardSize, target.shard)
    case 'page.asset':
      return ASSETS[target.name].text
  }
}

export type LiveAnswer =
  { status: 200; body: string; target: SiteTarget } | { status: 301; location: string } | { status: 404; body: string }

/**
 * What the API answers for a site path no artifact holds: a post page of a readable but
 * unlisted (noindex) post, a deeper list page, an old slug's redirect; anything else is the
 * 404 page.
 */
export function answerSitePath(src: SiteSource, target: SiteTarget | null): LiveAnswer {
  if (target?.kind === 'page.post') {
    const page = livePostPageOf(src.db, target.language, target.slug)
    if (page && 'movedTo' in page) return { status: 301, location: urlPathOf({ ...target, slug: page.movedTo }) }
    if (page) return { status: 200, body: renderPostPage(src, page), target }
  } else if (target) {
    const body = renderSiteTarget(src, target)
    if (body !== null) return { status: 200, body, target }
  }
  return { status: 404, body: renderNotFound(src) }
}
