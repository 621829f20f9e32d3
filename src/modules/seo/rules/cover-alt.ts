import { defineRule, fail, notApplicable, pass } from '../rule.ts'
import { isUsableAlt } from '../text/alt.ts'
import { fieldLength, isBlank } from '../text/units.ts'

export const COVER_ALT_LIMITS = { en: { maxLength: 125 }, zh: { maxLength: 60 } }

export const coverAlt = defineRule({
  code: 'cover_alt',
  step: 'basic',
  targetField: 'coverAlt',
  weight: 4,
  blocking: true,
  thresholds: COVER_ALT_LIMITS,
  why: 'Crawlers and screen readers only get the alt.',
  fixAction: 'Describe the cover.',
  autoFixType: 'cover_alt',
  judge({ post }, { maxLength }) {
    if (isBlank(post.coverImage)) return notApplicable('no cover image.')
    if (!isUsableAlt(post.coverAlt, maxLength)) return fail('Cover image has no usable alt text.')
    return pass(`Cover alt text has ${fieldLength(post.coverAlt)} characters.`)
  },
})
