import { SLUG_SHAPE } from '../../../shared/slug.ts'
import { both, defineRule, fail, inRange, pass } from '../rule.ts'

export const slugFormat = defineRule({
  code: 'slug_format',
  step: 'basic',
  targetField: 'slug',
  weight: 4,
  blocking: true,
  // ASCII in both languages: a pinyin or English slug survives every client and log unescaped.
  thresholds: both({ min: 3, max: 75 }),
  why: 'The slug is the public URL.',
  fixAction: 'Use the suggested slug.',
  autoFixType: 'slug',
  judge({ effectiveSlug: slug }, range) {
    if (SLUG_SHAPE.test(slug) && inRange(slug.length, range)) return pass(`Slug "${slug}" has ${slug.length} characters.`)
    return fail(`Slug "${slug}" must be lower-case ASCII words joined by hyphens, ${range.min}–${range.max} characters.`)
  },
})
