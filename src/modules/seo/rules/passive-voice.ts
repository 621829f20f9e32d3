import { defineRule, fail, notApplicable, pass, percent } from '../rule.ts'
import { isPassive } from '../text/passive.ts'

export const passiveVoice = defineRule({
  code: 'passive_voice',
  step: 'content',
  targetField: 'contentHtml',
  weight: 2,
  blocking: false,
  thresholds: { en: { minSentences: 5, maxPassiveShare: 0.1 }, zh: { minSentences: 5, maxPassiveShare: 0.1 } },
  why: 'Active voice is clearer.',
  fixAction: 'Rewrite actively.',
  autoFixType: null,
  judge({ sentences, language }, limits) {
    if (sentences.length < limits.minSentences) return notApplicable(`${sentences.length} sentence(s), too few to judge.`)
    const passive = sentences.filter((sentence) => isPassive(sentence.text, language)).length
    const pct = percent(passive, sentences.length)
    if (passive / sentences.length <= limits.maxPassiveShare) return pass(`${pct}% of sentences are passive.`)
    return fail(`${pct}% of sentences are passive (max ${Math.round(limits.maxPassiveShare * 100)}%).`)
  },
})
