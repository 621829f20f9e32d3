import { defineRule, fail, notApplicable, pass, percent, unitName } from '../rule.ts'

export const sentenceLength = defineRule({
  code: 'sentence_length',
  step: 'content',
  targetField: 'contentHtml',
  weight: 2,
  blocking: false,
  thresholds: { en: { minSentences: 5, maxUnits: 20, maxLongShare: 0.25 }, zh: { minSentences: 5, maxUnits: 40, maxLongShare: 0.25 } },
  why: 'Long sentences hurt comprehension.',
  fixAction: 'Shorten sentences.',
  autoFixType: null,
  judge({ sentences, language }, limits) {
    if (sentences.length < limits.minSentences) return notApplicable(`${sentences.length} sentence(s), too few to judge.`)
    const long = sentences.filter((sentence) => sentence.units > limits.maxUnits).length
    const pct = percent(long, sentences.length)
    const message = `${pct}% of sentences exceed ${limits.maxUnits} ${unitName(language)}.`
    return long / sentences.length <= limits.maxLongShare ? pass(message) : fail(message)
  },
})
