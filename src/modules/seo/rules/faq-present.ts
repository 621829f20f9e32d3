import { defineRule, fail, pass } from '../rule.ts'
import { completeFaqBlocks, FAQ_LIMITS } from './faq.ts'

export const faqPresent = defineRule({
  code: 'faq_present',
  step: 'aeo',
  targetField: 'faqBlocks',
  weight: 2,
  blocking: false,
  thresholds: FAQ_LIMITS,
  why: 'FAQs match how people ask assistants.',
  fixAction: 'Add Q&A pairs.',
  autoFixType: null,
  judge({ post }, { minComplete, minAnswerUnits }) {
    const n = completeFaqBlocks(post.faqBlocks, minAnswerUnits).filter(Boolean).length
    if (n >= minComplete) return pass(`${n} complete FAQ block(s).`)
    return fail(`${n} complete FAQ block(s); add at least ${minComplete}.`)
  },
})
