import { defineRule, fail, inRange, pass, unitName } from '../rule.ts'
import { units } from '../text/units.ts'

export const answerSummary = defineRule({
  code: 'answer_summary',
  step: 'aeo',
  targetField: 'answerSummary',
  weight: 4,
  blocking: false,
  thresholds: { en: { min: 20, max: 80 }, zh: { min: 40, max: 160 } },
  why: 'Answer engines quote a direct answer up front.',
  fixAction: 'Write a 1–3 sentence answer.',
  autoFixType: null,
  judge({ post, language }, range) {
    const n = units(post.answerSummary)
    const unit = unitName(language)
    if (inRange(n, range)) return pass(`Answer summary has ${n} ${unit}.`)
    return fail(`Answer summary has ${n} ${unit}; aim for ${range.min}–${range.max}.`)
  },
})
