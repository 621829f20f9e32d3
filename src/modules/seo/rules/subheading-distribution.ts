import { defineRule, fail, notApplicable, pass, unitName } from '../rule.ts'

export const subheadingDistribution = defineRule({
  code: 'subheading_distribution',
  step: 'content',
  targetField: 'contentHtml',
  weight: 3,
  blocking: false,
  thresholds: { en: { max: 300 }, zh: { max: 600 } },
  why: 'Subheadings make text scannable.',
  fixAction: 'Add H2/H3s.',
  autoFixType: null,
  judge({ body, language }, { max }) {
    const unit = unitName(language)
    if (body.units <= max) return notApplicable(`body has ${body.units} ${unit}, short enough without subheadings.`)
    const long = body.sections.filter((length) => length > max).length
    const longest = body.sections.reduce((a, b) => Math.max(a, b), 0)
    if (long === 0) return pass(`Longest section has ${longest} ${unit}.`)
    return fail(`${long} section(s) exceed ${max} ${unit} without a subheading.`)
  },
})
