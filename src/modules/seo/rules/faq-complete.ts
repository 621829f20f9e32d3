import { defineRule, fail, notApplicable, pass } from '../rule.ts'
import { completeFaqBlocks, FAQ_LIMITS } from './faq.ts'

export const faqComplete = defineRule({
  code: 'faq_complete',
  step: 'aeo',
  targetField: 'faqBlocks',
  weight: 2,
  blocking: false,
  thresholds: FAQ_LIMITS,
  why: 'FAQ markup must match complete visible Q&A.',
  fixAction: 'Complete or delete them.',
  autoFixType: null,
  judge({ post }, { minAnswerUnits }) {
    const blocks = completeFaqBlocks(post.faqBlocks, minAnswerUnits)
    if (blocks.length === 0) return notApplicable('no FAQ blocks.')
    const incomplete = blocks.filter((complete) => !complete).length
    if (incomplete === 0) return pass(`All ${blocks.length} FAQ block(s) complete.`)
    return fail(`${incomplete} FAQ block(s) incomplete; left out of structured data.`)
  },
})
