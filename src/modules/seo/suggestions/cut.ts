import type { Language } from '../../../shared/language.ts'
import { charWidth } from '../text/units.ts'

export type CharMeasure = (char: string) => number
/** Field length counts every code point as 1. */
export const byLength: CharMeasure = () => 1
/** SEO title width (§2). */
export const byWidth: CharMeasure = charWidth

/** Chinese clause marks where a cut title still reads as a phrase. */
const CLAUSE_END = new Set(['，', '、', '；', '：'])
const TRAILING = /[\s\p{P}]+$/u

/**
 * Longest prefix of `text` measuring at most `max`: English ends at a word boundary, Chinese at any
 * character, preferably after a clause mark if that keeps at least half of `max`. Trailing
 * punctuation and spaces are stripped (§5 generatedSeoTitle).
 */
export function cutToFit(text: string, max: number, language: Language, measure: CharMeasure = byLength): string {
  let total = 0
  let offset = 0
  let lastWordEnd = 0
  let lastClauseEnd = 0
  let fits = 0
  let previous = ''
  for (const char of text) {
    total += measure(char)
    if (total > max) break
    if (/\s/.test(char) && !/\s/.test(previous)) lastWordEnd = offset
    offset += char.length
    if (CLAUSE_END.has(char) && total * 2 >= max) lastClauseEnd = offset
    fits = offset
    previous = char
  }
  if (fits === text.length) return text
  let end = fits
  if (language === 'en' && lastWordEnd > 0) end = lastWordEnd
  if (language === 'zh' && lastClauseEnd > 0) end = lastClauseEnd
  return text.slice(0, end).replace(TRAILING, '')
}

/** Cut so that the text plus "…" fits in `max` characters (descriptions, excerpts). */
export const cutWithEllipsis = (text: string, max: number, language: Language): string => `${cutToFit(text, max - 1, language)}…`
