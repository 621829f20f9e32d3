import { defineRule, fail, notApplicable, pass, percent } from '../rule.ts'

export const languageMatch = defineRule({
  code: 'language_match',
  step: 'basic',
  targetField: 'language',
  weight: 4,
  blocking: true,
  // Share of Han letters among Han letters + Latin words; below `minSample` there is too little to tell.
  thresholds: {
    en: { minSample: 20, minHanShare: 0, hanShareBelow: 0.3 },
    zh: { minSample: 20, minHanShare: 0.5, hanShareBelow: Number.POSITIVE_INFINITY },
  },
  why: '`language` drives path, lang tag, hreflang, feeds.',
  fixAction: 'Fix `language` or translate.',
  autoFixType: null,
  judge({ sample, language }, limits) {
    const total = sample.han + sample.latin
    if (total < limits.minSample) return notApplicable(`only ${total} letters and words to judge the language by.`)
    const share = sample.han / total
    const pct = percent(sample.han, total)
    if (share >= limits.minHanShare && share < limits.hanShareBelow) return pass(`${pct}% of the text is Chinese.`)
    return fail(`Post is marked ${language} but ${pct}% of its text is Chinese.`)
  },
})
