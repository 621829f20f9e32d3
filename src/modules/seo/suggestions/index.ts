import type { CheckContext } from '../context.ts'
import type { SeoCheckResult } from '../types.ts'
import { generatedExcerpt, generatedSeoDescription } from './description.ts'
import { generatedOgTitle, generatedSeoTitle } from './seo-title.ts'

export type Suggestions = Pick<
  SeoCheckResult,
  'generatedSlug' | 'generatedSeoTitle' | 'generatedSeoDescription' | 'generatedOgTitle' | 'generatedExcerpt'
>

/** §5 suggestions, always returned whatever the rules found. */
export function suggest({ post, body, world, generatedSlug }: CheckContext): Suggestions {
  const { title, summary, language } = post
  return {
    generatedSlug,
    generatedSeoTitle: generatedSeoTitle(title, language, world.category(post.categoryId)),
    generatedSeoDescription: generatedSeoDescription(summary, body.paragraphs, language),
    generatedOgTitle: generatedOgTitle(title, language),
    generatedExcerpt: generatedExcerpt(summary, body.paragraphs, language),
  }
}
