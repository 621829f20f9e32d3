import { defineRule, fail, pass, unitName } from '../rule.ts'

export const thinContent = defineRule({
  code: 'thin_content',
  step: 'content',
  targetField: 'contentHtml',
  weight: 6,
  blocking: true,
  thresholds: { en: { min: 200 }, zh: { min: 400 } },
  why: 'Very short pages read as thin.',
  fixAction: 'Expand the post.',
  autoFixType: null,
  judge({ body, language }, { min }) {
    const unit = unitName(language)
    if (body.units >= min) return pass(`Body has ${body.units} ${unit}.`)
    return fail(`Body has ${body.units} ${unit}; publishing needs ${min}.`)
  },
})
