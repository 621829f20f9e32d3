import type { Language } from '../../../shared/language.ts'
import { units } from './units.ts'

export interface Sentence {
  text: string
  units: number
}

/** Closing quotes and brackets stay with the sentence they close. */
const CLOSERS = `"'”’」』）)\\]`
/** Both languages: a Latin terminator counts only before whitespace or the end ("v1.2" and "e.g.x" do not split). */
const LATIN_END = new RegExp(`[.!?…]+[${CLOSERS}]*(?=\\s|$)`, 'gu')
/** Chinese also ends a sentence at 。！？… with no space after it. */
const ZH_END = new RegExp(`(?:[.!?…]+[${CLOSERS}]*(?=\\s|$))|(?:[。！？…]+[${CLOSERS}]*)`, 'gu')

/** §2 sentences of one non-heading block; sentences without units are dropped. */
export function splitSentences(block: string, language: Language): Sentence[] {
  const pattern = language === 'zh' ? ZH_END : LATIN_END
  const sentences: Sentence[] = []
  let start = 0
  const push = (end: number) => {
    const text = block.slice(start, end).trim()
    const n = units(text)
    if (n > 0) sentences.push({ text, units: n })
    start = end
  }
  for (const match of block.matchAll(pattern)) push(match.index + match[0].length)
  push(block.length)
  return sentences
}
