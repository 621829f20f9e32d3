import { inLanguage, LANGUAGE_PATH, LANGUAGES, nameIn, type Language, postUrl } from '../../shared/language.ts'
import type { AuthorRes } from '../authors/model.ts'
import type { PostRes } from '../posts/model.ts'
import { RESOURCE_STATUS, type ResourceRes } from '../resources/model.ts'
import { w3cTime } from '../artifacts/render/sitemap.ts'
import type { ListPage, Publication } from './snapshot.ts'
import { productTargetOf, urlPathOf, type SiteTarget } from './targets.ts'

/**
 * Everything a page's `<head>` says about it, built here once per page kind: title,
 * description, canonical, hreflang alternates, Open Graph / Twitter and JSON-LD. The same
 * URL and alternate rules feed the sitemap (`alternatesOf`), so the two can never disagree.
 */
export interface Head {
  language: Language
  title: string
  description: string
  canonical: string
  alternates: { hreflang: string; href: string }[]
  noindex: boolean
  og: { type: 'article' | 'website' | 'product'; title: string; description: string; image: string; imageAlt: string }
  jsonLd: object[]
  feeds: { type: string; title: string; href: string }[]
}

export const HTML_LANG: Record<Language, string> = { en: 'en', zh: 'zh-CN' }
export const absolute = (siteUrl: string, url: string) =>
  !url || /^https?:\/\//i.test(url) ? url : `${siteUrl}${url.startsWith('/') ? '' : '/'}${url}`
const urlOf = (siteUrl: string, target: SiteTarget) => `${siteUrl}${urlPathOf(target)}`

/** hreflang alternates of a translated pair (both sides, plus x-default = the English one); none for an unpaired post. */
export function alternatesOf(
  siteUrl: string,
  own: { language: Language; slug: string },
  partner: { language: Language; slug: string } | null,
) {
  if (!partner) return []
  const urls = {
    [own.language]: postUrl(siteUrl, own.language, own.slug),
    [partner.language]: postUrl(siteUrl, partner.language, partner.slug),
  }
  return [
    { hreflang: 'en', href: urls.en! },
    { hreflang: 'zh', href: urls.zh! },
    { hreflang: 'x-default', href: urls.en! },
  ]
}

/** Alternates of pages that exist in both languages alike (home, products). */
const bothLanguages = (siteUrl: string, of: (language: Language) => SiteTarget) => [
  ...LANGUAGES.map((language) => ({ hreflang: language, href: urlOf(siteUrl, of(language)) })),
  { hreflang: 'x-default', href: urlOf(siteUrl, of('en')) },
]

const feedsOf = (pub: Publication, language: Language) => [
  {
    type: 'application/rss+xml',
    title: `${pub.name} (RSS)`,
    href: urlOf(pub.siteUrl, { kind: 'page.feed', language, scope: { kind: 'home' }, format: 'rss' }),
  },
  {
    type: 'application/atom+xml',
    title: `${pub.name} (Atom)`,
    href: urlOf(pub.siteUrl, { kind: 'page.feed', language, scope: { kind: 'home' }, format: 'atom' }),
  },
  {
    type: 'application/feed+json',
    title: `${pub.name} (JSON Feed)`,
    href: urlOf(pub.siteUrl, { kind: 'page.feed', language, scope: { kind: 'home' }, format: 'json' }),
  },
]

const publisherLd = (pub: Publication) => ({
  '@type': 'Organization',
  name: pub.name,
  url: `${pub.siteUrl}${LANGUAGE_PATH[pub.language]}/`,
  ...(pub.iconUrl ? { logo: { '@type': 'ImageObject', url: absolute(pub.siteUrl, pub.iconUrl) } } : {}),
})

const breadcrumbLd = (items: { name: string; url: string }[]) => ({
  '@context': 'https://schema.org',
  '@type': 'BreadcrumbList',
  itemListElement: items.map((item, i) => ({ '@type': 'ListItem', position: i + 1, name: item.name, item: item.url })),
})

export const authorUrl = (siteUrl: string, author: AuthorRes) =>
  urlOf(siteUrl, { kind: 'page.list', language: author.language as Language, scope: { kind: 'author', slug: author.slug }, page: 1 })

/** The FAQ a page shows and marks up: only when every block has both a question and an answer. */
export const completeFaq = (post: PostRes) =>
  post.faqBlocks.length > 0 && post.faqBlocks.every((f) => f.question.trim() && f.answer.trim()) ? post.faqBlocks : []

/** The crumbs a post page shows: home, its category, the post. */
export function postCrumbs(pub: Publication, post: PostRes) {
  const language = post.language as Language
  const home = { name: pub.name, url: urlOf(pub.siteUrl, { kind: 'page.list', language, scope: { kind: 'home' }, page: 1 }) }
  const category = post.category
    ? [
        {
          name: nameIn(language, post.category),
          url: urlOf(pub.siteUrl, { kind: 'page.list', language, scope: { kind: 'category', slug: post.category.slug }, page: 1 }),
        },
      ]
    : []
  return [home, ...category, { name: post.title, url: postUrl(pub.siteUrl, language, post.slug) }]
}

export function postHead(pub: Publication, post: PostRes, partner: { language: Language; slug: string } | null, noindex: boolean): Head {
  const language = post.language as Language
  const self = postUrl(pub.siteUrl, language, post.slug)
  const title = post.seoTitle || post.title
  const description = post.seoDescription || post.summary
  const image = absolute(pub.siteUrl, post.ogImage || post.coverImage)
  const faq = completeFaq(post)
  const author = post.authorProfile
    ? {
        '@type': 'Person',
        name: post.authorProfile.name,
        url: authorUrl(pub.siteUrl, post.authorProfile),
        ...(post.authorProfile.title ? { jobTitle: post.authorProfile.title } : {}),
      }
    : post.author
      ? { '@type': 'Person', name: post.author }
      : undefined
  const posting = {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description,
    url: self,
    mainEntityOfPage: self,
    inLanguage: HTML_LANG[language],
    ...(post.publishedAt ? { datePublished: w3cTime(post.publishedAt) } : {}),
    dateModified: w3cTime(post.updatedTime),
    ...(post.coverImage ? { image: absolute(pub.siteUrl, post.coverImage) } : {}),
    ...(author ? { author } : {}),
    publisher: publisherLd(pub),
  }
  return {
    language,
    title,
    description,
    canonical: post.canonicalUrl || self,
    alternates: alternatesOf(pub.siteUrl, { language, slug: post.slug }, partner),
    noindex,
    og: { type: 'article', title: post.ogTitle || title, description: post.ogDescription || description, image, imageAlt: post.coverAlt },
    jsonLd: [
      posting,
      ...(faq.length
        ? [
            {
              '@context': 'https://schema.org',
              '@type': 'FAQPage',
              mainEntity: faq.map((f) => ({
                '@type': 'Question',
                name: f.question,
                acceptedAnswer: { '@type': 'Answer', text: f.answer },
              })),
            },
          ]
        : []),
      breadcrumbLd(postCrumbs(pub, post)),
    ],
    feeds: feedsOf(pub, language),
  }
}

export function listHead(pub: Publication, list: ListPage, title: string): Head {
  const { language } = pub
  const target: SiteTarget = { kind: 'page.list', language, scope: list.info.scope, page: list.page }
  const self = urlOf(pub.siteUrl, target)
  const home = list.info.scope.kind === 'home'
  const description = (home ? pub.description : list.info.description) || pub.description || title
  const crumbs = [{ name: pub.name, url: urlOf(pub.siteUrl, { kind: 'page.list', language, scope: { kind: 'home' }, page: 1 }) }]
  return {
    language,
    title,
    description,
    canonical: self,
    alternates:
      home && list.page === 1
        ? bothLanguages(pub.siteUrl, (l) => ({ kind: 'page.list', language: l, scope: { kind: 'home' }, page: 1 }))
        : [],
    noindex: false,
    og: { type: 'website', title, description, image: absolute(pub.siteUrl, pub.iconUrl), imageAlt: pub.iconAlt },
    jsonLd: home ? [] : [breadcrumbLd([...crumbs, { name: list.info.name, url: self }])],
    feeds: home
      ? feedsOf(pub, language)
      : (['rss', 'atom', 'json'] as const).map((format) => ({
          type: { rss: 'application/rss+xml', atom: 'application/atom+xml', json: 'application/feed+json' }[format],
          title: `${list.info.name} (${{ rss: 'RSS', atom: 'Atom', json: 'JSON Feed' }[format]})`,
          href: urlOf(pub.siteUrl, { kind: 'page.feed', language, scope: list.info.scope, format }),
        })),
  }
}

export const productName = (product: ResourceRes, language: Language) => nameIn(language, product)
export const productSummary = (product: ResourceRes, language: Language) => inLanguage(language, product.summaryEn, product.summaryZh)

export function productHead(pub: Publication, product: ResourceRes): Head {
  const { language } = pub
  const name = productName(product, language)
  const description = productSummary(product, language) || name
  const self = `${pub.siteUrl}${product.links[language]}`
  return {
    language,
    title: name,
    description,
    canonical: self,
    alternates: bothLanguages(pub.siteUrl, (l) => productTargetOf(product.links[l])),
    noindex: false,
    og: { type: 'product', title: name, description, image: '', imageAlt: '' },
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name,
        description,
        sku: product.productId,
        ...(product.categoryName ? { category: product.categoryName } : {}),
        offers: {
          '@type': 'Offer',
          url: self,
          price: product.displayPriceText,
          priceCurrency: 'USDT',
          availability: product.status === RESOURCE_STATUS.outOfStock ? 'https://schema.org/OutOfStock' : 'https://schema.org/InStock',
        },
      },
      breadcrumbLd([
        { name: pub.name, url: urlOf(pub.siteUrl, { kind: 'page.list', language, scope: { kind: 'home' }, page: 1 }) },
        { name, url: self },
      ]),
    ],
    feeds: [],
  }
}

/** Pages outside any language (the language choice, the 404 page): no canonical alternates of their own. */
export function plainHead(pub: Publication, title: string, canonical: string, noindex: boolean): Head {
  return {
    language: pub.language,
    title,
    description: pub.description || title,
    canonical,
    alternates: canonical ? bothLanguages(pub.siteUrl, (l) => ({ kind: 'page.list', language: l, scope: { kind: 'home' }, page: 1 })) : [],
    noindex,
    og: { type: 'website', title, description: pub.description || title, image: absolute(pub.siteUrl, pub.iconUrl), imageAlt: pub.iconAlt },
    jsonLd: [],
    feeds: [],
  }
}
