import { defineRule, fail, inRange, pass } from '../rule.ts'
import { fieldLength } from '../text/units.ts'

export const TITLE_LENGTH = { en: { min: 20, max: 70 }, zh: { min: 10, max: 35 } }

export const titleLength = defineRule({
  code: 'title_length',
  step: 'basic',
  targetField: 'title',
  weight: 3,
  blocking: false,
  thresholds: TITLE_LENGTH,
  why: 'It is the H1 and the fallback search title.',
  fixAction: 'Rewrite the title.',
  autoFixType: null,
  judge({ post }, range) {
    const n = fieldLength(post.title)
    if (inRange(n, range)) return pass(`Title has ${n} characters.`)
    return fail(`Title has ${n} characters; aim for ${range.min}–${range.max}.`)
  },
})
