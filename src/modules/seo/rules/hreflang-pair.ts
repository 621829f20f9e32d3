import { otherLanguage } from '../../../shared/language.ts'
import { defineRule, fail, NO_LIMITS, notApplicable, pass } from '../rule.ts'

export const hreflangPair = defineRule({
  code: 'hreflang_pair',
  step: 'seo',
  targetField: 'alternateSlug',
  weight: 3,
  blocking: true,
  thresholds: NO_LIMITS,
  why: 'hreflang needs a real, reciprocal translation.',
  fixAction: 'Fix or clear alternateSlug.',
  autoFixType: null,
  judge({ post, world, language, effectiveSlug }) {
    const slug = post.alternateSlug.trim()
    if (slug === '') return notApplicable('no translation paired.')
    const other = otherLanguage(language)
    const pair = world.postByCurrentSlug(other, slug)
    if (!pair) return fail(`No ${other} post has slug "${slug}".`)
    const back = pair.alternateSlug.trim()
    if (back !== '' && back !== effectiveSlug) return fail(`The ${other} post "${slug}" pairs with "${back}".`)
    return pass(`Pairs with the ${other} post "${slug}".`)
  },
})
