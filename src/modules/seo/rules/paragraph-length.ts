import { defineRule, fail, notApplicable, pass, unitName } from '../rule.ts'

export const paragraphLength = defineRule({
  code: 'paragraph_length',
  step: 'content',
  targetField: 'contentHtml',
  weight: 2,
  blocking: false,
  thresholds: { en: { max: 150 }, zh: { max: 300 } },
  why: 'Short paragraphs read better on phones.',
  fixAction: 'Split paragraphs.',
  autoFixType: null,
  judge({ body, language }, { max }) {
    const unit = unitName(language)
    if (body.paragraphs.length === 0) return notApplicable('no paragraphs.')
    let long = 0
    let longest = 0
    for (const { units } of body.paragraphs) {
      if (units > max) long += 1
      longest = Math.max(longest, units)
    }
    if (long === 0) return pass(`Longest paragraph has ${longest} ${unit}.`)
    return fail(`${long} paragraph(s) exceed ${max} ${unit}.`)
  },
})
