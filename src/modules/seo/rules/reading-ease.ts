import { defineRule, fail, notApplicable, pass, unitName } from '../rule.ts'
import { fleschReadingEase } from '../text/flesch.ts'

export const readingEase = defineRule({
  code: 'reading_ease',
  step: 'content',
  targetField: 'contentHtml',
  weight: 2,
  blocking: false,
  // English uses Flesch; Chinese has no syllables, so the mean sentence length stands in (Yoast ja model).
  thresholds: { en: { minUnits: 50, minFlesch: 50, maxMeanSentence: null }, zh: { minUnits: 100, minFlesch: null, maxMeanSentence: 30 } },
  why: 'Plain text is easier to read and quote.',
  fixAction: 'Simpler words, shorter sentences.',
  autoFixType: null,
  judge({ body, sentences, language }, limits) {
    if (body.units < limits.minUnits) return notApplicable(`body has ${body.units} ${unitName(language)}, too little to judge.`)
    if (limits.minFlesch !== null) {
      const fre = fleschReadingEase(sentences)
      if (fre === null) return notApplicable('no sentences outside headings.')
      const message = `Flesch reading ease ${fre.toFixed(1)}; aim for ${limits.minFlesch}+.`
      return fre >= limits.minFlesch ? pass(message) : fail(message)
    }
    const total = sentences.reduce((sum, sentence) => sum + sentence.units, 0)
    const mean = sentences.length === 0 ? 0 : Math.round((10 * total) / sentences.length) / 10
    const message = `Average sentence ${mean.toFixed(1)} characters; aim for ≤ ${limits.maxMeanSentence}.`
    return mean <= (limits.maxMeanSentence ?? Number.POSITIVE_INFINITY) ? pass(message) : fail(message)
  },
})
