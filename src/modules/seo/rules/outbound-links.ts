import { defineRule, fail, NO_LIMITS, pass } from '../rule.ts'

export const outboundLinks = defineRule({
  code: 'outbound_links',
  step: 'content',
  targetField: 'contentHtml',
  weight: 2,
  blocking: false,
  thresholds: NO_LIMITS,
  why: 'Shows where facts come from.',
  fixAction: 'Link a source.',
  autoFixType: null,
  judge({ links }) {
    const n = links.filter((link) => link.kind === 'external').length
    return n > 0 ? pass(`${n} outbound link(s).`) : fail('No outbound links.')
  },
})
