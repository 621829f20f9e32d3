import { defineRule, fail, NO_LIMITS, pass } from '../rule.ts'
import { isBlank } from '../text/units.ts'

export const coverPresent = defineRule({
  code: 'cover_present',
  step: 'basic',
  targetField: 'coverImage',
  weight: 2,
  blocking: false,
  thresholds: NO_LIMITS,
  why: 'Article markup and previews need an image.',
  fixAction: 'Upload a cover.',
  autoFixType: null,
  judge({ post }) {
    return isBlank(post.coverImage) ? fail('No cover image.') : pass(`Cover image ${post.coverImage.trim()}.`)
  },
})
