import { postUrl, type Language } from '../../shared/language.ts'
import { analyseBody, type BodyFacts } from './html/document.ts'
import { suggestSlug } from './suggestions/slug.ts'
import { languageSample, type LanguageSample } from './text/language-sample.ts'
import { splitSentences, type Sentence } from './text/sentences.ts'
import { classifyLink, type LinkClass } from './text/urls.ts'
import { isBlank } from './text/units.ts'
import type { FaqBlock, SeoInput, SeoWorld } from './types.ts'

/** SeoInput with every optional text made a string, so rules never meet null. */
export interface Post {
  id: number | null
  language: Language
  title: string
  contentHtml: string
  categoryId: number
  summary: string
  slug: string
  alternateSlug: string
  coverImage: string
  coverAlt: string
  ogImage: string
  authorId: number | null
  author: string
  seoTitle: string
  seoDescription: string
  canonicalUrl: string
  robots: string
  indexable: boolean
  answerSummary: string
  keyTakeaways: string[]
  faqBlocks: FaqBlock[]
  reviewedAt: string
}

export interface ClassifiedLink extends LinkClass {
  href: string
  rel: string
}

/** The shared analysis every rule reads: one parse, one walk, measured once. */
export interface CheckContext {
  post: Post
  language: Language
  world: SeoWorld
  now: Date
  body: BodyFacts
  /** §2 sentences of the non-heading blocks. */
  sentences: Sentence[]
  links: ClassifiedLink[]
  sample: LanguageSample
  /** SITE_URL + postPath, the URL a blank canonical means. */
  selfUrl: string
  generatedSlug: string
  /** The slug the post will have: its own, else generatedSlug. */
  effectiveSlug: string
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')
const id = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)

export function normalizePost(input: SeoInput): Post {
  return {
    id: id(input.id),
    language: input.language === 'zh' ? 'zh' : 'en',
    title: text(input.title),
    contentHtml: text(input.contentHtml),
    categoryId: id(input.categoryId) ?? 0,
    summary: text(input.summary),
    slug: text(input.slug),
    alternateSlug: text(input.alternateSlug),
    coverImage: text(input.coverImage),
    coverAlt: text(input.coverAlt),
    ogImage: text(input.ogImage),
    authorId: id(input.authorId),
    author: text(input.author),
    seoTitle: text(input.seoTitle),
    seoDescription: text(input.seoDescription),
    canonicalUrl: text(input.canonicalUrl),
    robots: text(input.robots),
    indexable: input.indexable !== false,
    answerSummary: text(input.answerSummary),
    keyTakeaways: Array.isArray(input.keyTakeaways) ? input.keyTakeaways.map(text) : [],
    faqBlocks: Array.isArray(input.faqBlocks)
      ? input.faqBlocks.map((block) => ({
          question: text(block?.question),
          answer: text(block?.answer),
          sortOrder: block?.sortOrder ?? null,
        }))
      : [],
    reviewedAt: text(input.reviewedAt),
  }
}

/** What a check reads from the body, title and language alone: the costly text passes. */
export interface BodyAnalysis {
  body: BodyFacts
  sentences: Sentence[]
  sample: LanguageSample
}

export type Analyse = (post: Pick<Post, 'contentHtml' | 'language' | 'title'>) => BodyAnalysis

export const analyse: Analyse = ({ contentHtml, language, title }) => {
  const body = analyseBody(contentHtml)
  return {
    body,
    sentences: body.blocks.filter((block) => !block.heading).flatMap((block) => splitSentences(block.text, language)),
    sample: languageSample(`${title}\n${body.text}`),
  }
}

/**
 * `analyse` remembering its last answer: autofix checks one post several times, its fixes writing
 * the slug, SEO title and description, canonical and cover alt, never the body, title or language.
 * The answer is only read by the rules, never changed, so the checks may share it.
 */
export function rememberingAnalyse(): Analyse {
  let last: (Parameters<Analyse>[0] & { analysis: BodyAnalysis }) | null = null
  return ({ contentHtml, language, title }) => {
    if (last?.contentHtml !== contentHtml || last.language !== language || last.title !== title)
      last = { contentHtml, language, title, analysis: analyse({ contentHtml, language, title }) }
    return last.analysis
  }
}

export function buildContext(input: SeoInput, world: SeoWorld, now: Date, analysed: Analyse = analyse): CheckContext {
  const post = normalizePost(input)
  const { language } = post
  const { body, sentences, sample } = analysed(post)
  const generatedSlug = suggestSlug(post, world)
  const effectiveSlug = isBlank(post.slug) ? generatedSlug : post.slug
  const selfUrl = postUrl(world.siteUrl, language, effectiveSlug)
  return {
    post,
    language,
    world,
    now,
    body,
    sentences,
    links: body.links.map((link) => ({ ...link, ...classifyLink(link.href, world.siteUrl, selfUrl) })),
    sample,
    selfUrl,
    generatedSlug,
    effectiveSlug,
  }
}
