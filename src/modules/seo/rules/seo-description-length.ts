import { defineRule, fail, inRange, pass } from '../rule.ts'
import { fieldLength, isBlank } from '../text/units.ts'

export const SEO_DESCRIPTION_LENGTH = { en: { min: 120, max: 156 }, zh: { min: 60, max: 80 } }

export const seoDescriptionLength = defineRule({
  code: 'seo_description_length',
  step: 'seo',
  targetField: 'seoDescription',
  weight: 5,
  blocking: false,
  thresholds: SEO_DESCRIPTION_LENGTH,
  why: 'Snippets are cut; a good one earns the click.',
  fixAction: 'Use the suggestion.',
  autoFixType: 'seo_description',
  judge({ post }, range) {
    const n = fieldLength(isBlank(post.seoDescription) ? post.summary : post.seoDescription)
    if (inRange(n, range)) return pass(`Search description has ${n} characters.`)
    return fail(`Search description has ${n} characters; aim for ${range.min}–${range.max}.`)
  },
})
