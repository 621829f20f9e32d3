/** The two content languages of the spec (§2.2). */
export const LANGUAGES = ['en', 'zh'] as const
export type Language = (typeof LANGUAGES)[number]

/** The public site path prefix of a language: Chinese pages live under /cn, as the spec's product links do. */
export const LANGUAGE_PATH: Record<Language, string> = { en: '/en', zh: '/cn' }

/** A bilingual text in a language, the other language's standing in when it is blank (the one rule every page, feed and card follows). */
export const inLanguage = (language: Language, en: string, zh: string): string => (language === 'zh' ? zh || en : en || zh)

/** A bilingual name (a category's, a tag's, a product's) in a language, with the same fallback. */
export const nameIn = (language: Language, names: { nameEn: string; nameZh: string }): string =>
  inLanguage(language, names.nameEn, names.nameZh)

export const otherLanguage = (language: Language): Language => (language === 'en' ? 'zh' : 'en')

/** Public page path of a post; shared by the SEO check (self canonical), the renderers and the webhooks. */
export const postPath = (language: Language, slug: string): string => `${LANGUAGE_PATH[language]}/blog/${slug}`

/**
 * A post page's absolute URL on SITE_URL (kept without a trailing slash by config.ts): the one
 * builder of it, for the site's links, feeds, sitemaps and twins, the API's feed and sitemap,
 * webhook payloads and the SEO check's canonical. Here rather than in the site, so the SEO
 * check's threads and the webhook worker load nothing of the site to use it.
 */
export const postUrl = (siteUrl: string, language: Language, slug: string): string => `${siteUrl}${postPath(language, slug)}`
