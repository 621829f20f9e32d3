import { defineRule, fail, inRange, pass } from '../rule.ts'
import { fieldLength } from '../text/units.ts'

export const summaryPresent = defineRule({
  code: 'summary_present',
  step: 'basic',
  targetField: 'summary',
  weight: 3,
  blocking: false,
  thresholds: { en: { min: 80, max: 300 }, zh: { min: 40, max: 150 } },
  why: 'Feeds excerpt, RSS, default description.',
  fixAction: 'Write a summary (see generatedExcerpt).',
  autoFixType: null,
  judge({ post }, range) {
    const n = fieldLength(post.summary)
    if (inRange(n, range)) return pass(`Summary has ${n} characters.`)
    return fail(`Summary has ${n} characters; aim for ${range.min}–${range.max}.`)
  },
})
