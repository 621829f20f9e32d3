import { defineRule, fail, NO_LIMITS, pass } from '../rule.ts'

export const internalLinks = defineRule({
  code: 'internal_links',
  step: 'content',
  targetField: 'contentHtml',
  weight: 3,
  blocking: false,
  thresholds: NO_LIMITS,
  why: 'Spreads discovery and context.',
  fixAction: 'Link a related post or product.',
  autoFixType: null,
  judge({ links }) {
    const n = links.filter((link) => link.kind === 'internal').length
    return n > 0 ? pass(`${n} internal link(s).`) : fail('No internal links.')
  },
})
