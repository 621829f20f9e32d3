import { defineRule, fail, pass, unitName } from '../rule.ts'

export const contentLength = defineRule({
  code: 'content_length',
  step: 'content',
  targetField: 'contentHtml',
  weight: 4,
  blocking: false,
  thresholds: { en: { min: 300 }, zh: { min: 600 } },
  why: 'Depth covers the topic.',
  fixAction: 'Add substance.',
  autoFixType: null,
  judge({ body, language }, { min }) {
    const unit = unitName(language)
    if (body.units >= min) return pass(`Body has ${body.units} ${unit}.`)
    return fail(`Body has ${body.units} ${unit}; ${min}+ recommended.`)
  },
})
