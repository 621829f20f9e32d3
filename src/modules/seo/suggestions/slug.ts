import { createHash } from 'node:crypto'
import { firstFreeSlug, RESERVED_POST_SLUGS, slugOf } from '../../../shared/slug.ts'
import type { Language } from '../../../shared/language.ts'
import type { SeoInput, SeoWorld } from '../types.ts'

const MIN_SLUG = 3

/** §5 step 2, shared with the taxonomy's generated slugs. */
export const slugFromTitle = (title: string): string => slugOf(title, 60)

/** The post that already owns `slug` in this language, other than the post itself (duplicate_slug). */
export function slugOwner(slug: string, input: Pick<SeoInput, 'id' | 'language'>, world: SeoWorld) {
  const owner = world.postBySlug(input.language, slug)
  return owner && owner.id !== input.id ? owner : undefined
}

function pairedEnglishSlug(input: SeoInput, world: SeoWorld): string | undefined {
  const alternate = input.alternateSlug?.trim()
  if (input.language !== 'zh' || !alternate) return undefined
  return world.postByCurrentSlug('en', alternate)?.slug
}

function fallbackSlug(id: number | null | undefined, language: Language, title: string): string {
  if (id !== null && id !== undefined) return `post-${id}`
  return `post-${createHash('sha1').update(`${language}:${title}`, 'utf8').digest('hex').slice(0, 8)}`
}

/**
 * generatedSlug of §5. The post lifecycle fills a blank slug with it on save, and the check uses it as
 * the effective slug, so both must stay this one function.
 */
export function suggestSlug(input: SeoInput, world: SeoWorld): string {
  const title = typeof input.title === 'string' ? input.title : ''
  let base = pairedEnglishSlug(input, world) ?? slugFromTitle(title)
  if (base.length < MIN_SLUG) base = fallbackSlug(input.id, input.language, title)
  return firstFreeSlug(base, (slug) => RESERVED_POST_SLUGS.has(slug) || slugOwner(slug, input, world) !== undefined)
}
