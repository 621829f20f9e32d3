import type { Language } from '../../../shared/language.ts'
import type { Paragraph } from '../html/document.ts'
import { SEO_DESCRIPTION_LENGTH } from '../rules/seo-description-length.ts'
import { splitSentences } from '../text/sentences.ts'
import { collapseWhitespace, fieldLength, isBlank } from '../text/units.ts'
import { cutWithEllipsis } from './cut.ts'

const EXCERPT_MAX = { en: 300, zh: 150 }
/** Chinese sentences run on without spaces. */
const joiner = (language: Language): string => (language === 'en' ? ' ' : '')

/**
 * Whole sentences, in order, while the text stays within `max`, stopping once it reaches `min`;
 * when even the first sentence is too long it is cut with "…".
 */
function packSentences(sentences: readonly string[], min: number, max: number, language: Language): string {
  let text = ''
  for (const sentence of sentences) {
    const next = text === '' ? sentence : text + joiner(language) + sentence
    if (fieldLength(next) > max) break
    text = next
    if (fieldLength(text) >= min) break
  }
  const [first] = sentences
  return text === '' && first !== undefined ? cutWithEllipsis(first, max, language) : text
}

const sentencesOf = (text: string, language: Language): string[] => splitSentences(collapseWhitespace(text), language).map((s) => s.text)

const firstParagraph = (paragraphs: readonly Paragraph[]): string => paragraphs.find((p) => p.text !== '')?.text ?? ''

/**
 * §5 generatedSeoDescription: sentences of the summary, then of the first paragraph. A first paragraph
 * that merely repeats the summary is skipped for the next one, so the description does not say it twice.
 */
export function generatedSeoDescription(summary: string, paragraphs: readonly Paragraph[], language: Language): string {
  const lead = collapseWhitespace(summary)
  const paragraph = paragraphs.find((p) => p.text !== '' && p.text !== lead)?.text ?? ''
  const { min, max } = SEO_DESCRIPTION_LENGTH[language]
  return packSentences([...sentencesOf(lead, language), ...sentencesOf(paragraph, language)], min, max, language)
}

/** §5 generatedExcerpt: the summary, else the first paragraph cut at the last sentence end that fits. */
export function generatedExcerpt(summary: string, paragraphs: readonly Paragraph[], language: Language): string {
  if (!isBlank(summary)) return collapseWhitespace(summary)
  const max = EXCERPT_MAX[language]
  return packSentences(sentencesOf(firstParagraph(paragraphs), language), max, max, language)
}
