/** The two content languages of the spec (§2.2). */
export const LANGUAGES = ['en', 'zh'] as const
export type Language = (typeof LANGUAGES)[number]

/** The public site path prefix of a language: Chinese pages live under /cn, as the spec's product links do. */
export const LANGUAGE_PATH: Record<Language, string> = { en: '/en', zh: '/cn' }

export const otherLanguage = (language: Language): Language => (language === 'en' ? 'zh' : 'en')

/** Public page path of a post; shared by the SEO check (self canonical), the renderers and the webhooks. */
export const postPath = (language: Language, slug: string): string => `${LANGUAGE_PATH[language]}/blog/${slug}`
