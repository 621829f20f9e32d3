import type { Queryable } from '../../db/client.ts'
import { LANGUAGES, type Language } from '../../shared/language.ts'
import { markdownLine } from '../../shared/markdown-text.ts'
import { PAGE_STATUS } from '../pages/terms.ts'
import { isIndexed, pageBySlug, pagePartner, publishedPages, type PageRow } from '../pages/repo.ts'
import { renderUrlset, w3cTime, type SitemapEntry } from '../artifacts/render/sitemap.ts'
import { absolute, HTML_LANG, type Head } from './head.ts'
import { htmlToMarkdown } from './markdown.ts'
import { readingBody } from './reading.ts'
import type { Publication } from './snapshot.ts'
import { urlPathOf, type SiteTarget } from './targets.ts'
import { Layout, type Chrome } from './templates/layout.tsx'
import { Crumbs } from './templates/post.tsx'
import { WORDS } from './templates/words.ts'

/**
 * Standalone pages on the site (docs/pages.md): `/en/{slug}` and `/cn/{slug}` in the theme, their
 * Markdown twins, the navigation links of every page, and `/sitemap/standalone.xml`. Never in a
 * post list or feed: those read posts only.
 */

const pageUrl = (siteUrl: string, language: Language, slug: string) => `${siteUrl}${urlPathOf({ kind: 'page.standalone', language, slug })}`

/** A published page and its published translation, or null: a draft has no public page. */
export function standaloneOf(db: Queryable, language: Language, slug: string): { row: PageRow; partner: PageRow | null } | null {
  const row = pageBySlug(db, language, slug)
  return row?.status === PAGE_STATUS.published ? { row, partner: pagePartner(db, row) } : null
}

/** hreflang of a translated pair (both sides and x-default = the English one), as posts declare theirs. */
function pageAlternates(siteUrl: string, row: PageRow, partner: PageRow | null) {
  if (!partner) return []
  const url = {
    [row.language]: pageUrl(siteUrl, row.language, row.slug),
    [partner.language]: pageUrl(siteUrl, partner.language, partner.slug),
  }
  return [...LANGUAGES.map((hreflang) => ({ hreflang, href: url[hreflang]! })), { hreflang: 'x-default', href: url.en! }]
}

function pageHead(pub: Publication, row: PageRow, partner: PageRow | null): Head {
  const self = pageUrl(pub.siteUrl, row.language, row.slug)
  const title = row.seoTitle || row.title
  const description = row.seoDescription || row.contentText.slice(0, 160).trim() || pub.description || title
  const image = absolute(pub.siteUrl, row.ogImage || pub.iconUrl)
  return {
    language: row.language,
    title,
    description,
    canonical: row.canonicalUrl || self,
    alternates: pageAlternates(pub.siteUrl, row, partner),
    noindex: !isIndexed(row),
    og: {
      type: 'website',
      title: row.ogTitle || title,
      description: row.ogDescription || description,
      image,
      imageAlt: row.ogImage ? '' : pub.iconAlt,
    },
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'WebPage',
        name: row.title,
        description,
        url: self,
        inLanguage: HTML_LANG[row.language],
        dateModified: w3cTime(row.updatedAt),
      },
    ],
    feeds: [],
  }
}

function StandaloneView({ head, chrome, row, pub }: { head: Head; chrome: Chrome; row: PageRow; pub: Publication }) {
  const home = urlPathOf({ kind: 'page.list', language: row.language, scope: { kind: 'home' }, page: 1 })
  return (
    <Layout head={head} chrome={chrome}>
      <article class="article" lang={HTML_LANG[row.language]}>
        <Crumbs
          items={[
            { name: pub.name, url: `${pub.siteUrl}${home}` },
            { name: row.title, url: pageUrl(pub.siteUrl, row.language, row.slug) },
          ]}
          label={WORDS[row.language].breadcrumb}
        />
        <h1>{row.title}</h1>
        <div class="content" dangerouslySetInnerHTML={{ __html: readingBody(row.contentHtml, row.language) }} />
      </article>
    </Layout>
  )
}

/** The page's HTML, in the chrome of its language (the language switch goes to its translation). */
export function standaloneHtml(
  pub: Publication,
  chromeOf: (switchTo: Chrome['switchTo']) => Chrome,
  row: PageRow,
  partner: PageRow | null,
) {
  const switchTo = partner
    ? { language: partner.language, href: urlPathOf({ kind: 'page.standalone', language: partner.language, slug: partner.slug }) }
    : null
  return <StandaloneView head={pageHead(pub, row, partner)} chrome={chromeOf(switchTo)} row={row} pub={pub} />
}

/** `/en/{slug}.md`: the title, the page's URL and its body as Markdown. */
export const standaloneTwin = (siteUrl: string, row: PageRow): string =>
  `# ${markdownLine(row.title)}\n\n<${pageUrl(siteUrl, row.language, row.slug)}>\n\n${htmlToMarkdown(row.contentHtml)}\n`

/** `/sitemap/standalone.xml`: every published, indexable page with its hreflang pair; null when there is none. */
export function standaloneSitemap(db: Queryable, siteUrl: string): string | null {
  const entries: SitemapEntry[] = publishedPages(db)
    .filter(isIndexed)
    .map((row) => ({
      loc: pageUrl(siteUrl, row.language, row.slug),
      lastmod: w3cTime(row.updatedAt),
      alternates: pageAlternates(siteUrl, row, pagePartner(db, row)),
    }))
  return entries.length ? renderUrlset(entries) : null
}

/** The newest change of an indexed page, for the sitemap index; null when none is indexed. */
export function standaloneLastmod(db: Queryable): string | null {
  const rows = publishedPages(db).filter(isIndexed)
  return rows.length ? w3cTime(rows.reduce((max, r) => (r.updatedAt > max ? r.updatedAt : max), '')) : null
}

/** Every artifact of the published pages: each page and twin, and the pages sitemap. */
export function everyStandaloneTarget(db: Queryable): SiteTarget[] {
  return [
    { kind: 'page.sitemapStandalone' },
    ...publishedPages(db).flatMap((r): SiteTarget[] => [
      { kind: 'page.standalone', language: r.language, slug: r.slug },
      { kind: 'page.standaloneTwin', language: r.language, slug: r.slug },
    ]),
  ]
}
