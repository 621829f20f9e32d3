import type { Language } from '../../../shared/language.ts'
import { units } from './units.ts'

export interface Sentence {
  text: string
  units: number
}

/** Closing quotes and brackets stay with the sentence they close. */
const CLOSERS = new Set(['"', "'", '”', '’', '」', '』', '）', ')', ']'])
/** Both languages: a Latin terminator counts only before whitespace or the end ("v1.2" and "e.g.x" do not split). */
const LATIN_ENDS = new Set(['.', '!', '?', '…'])
/** Chinese also ends a sentence at 。！？… with no space after it. */
const ZH_ENDS = new Set(['。', '！', '？', '…'])
const WHITESPACE = /\s/

/** Where the run of `set` members starting at each offset ends, computed in one right-to-left pass. */
function runEnds(block: string, set: ReadonlySet<string>): Int32Array {
  const ends = new Int32Array(block.length + 1)
  ends[block.length] = block.length
  for (let i = block.length - 1; i >= 0; i--) ends[i] = set.has(block[i]!) ? ends[i + 1]! : i
  return ends
}

/**
 * Offsets just after each sentence end of §2, found in one left-to-right scan. It matches what
 * `[.!?…]+[closers]*(?=\s|$)` (plus, for zh, `[。！？…]+[closers]*`) would find with `matchAll`,
 * but a regex engine rescans a long run of terminators from every offset (64,000 dots took 15 s);
 * here each run is measured once, so the pass is linear.
 */
export function sentenceEnds(block: string, language: Language): number[] {
  const latin = runEnds(block, LATIN_ENDS)
  const zh = language === 'zh' ? runEnds(block, ZH_ENDS) : null
  const closers = runEnds(block, CLOSERS)
  const ends: number[] = []
  let i = 0
  while (i < block.length) {
    if (latin[i]! > i) {
      const end = closers[latin[i]!]!
      // The lookahead fails the same way from every offset of this run: skip to its end.
      if (end === block.length || WHITESPACE.test(block[end]!)) {
        ends.push(end)
        i = end
        continue
      }
      if (zh === null || zh[i] === i) {
        i = zh === null ? latin[i]! : i + 1
        continue
      }
    }
    if (zh !== null && zh[i]! > i) {
      const end = closers[zh[i]!]!
      ends.push(end)
      i = end
      continue
    }
    i += 1
  }
  return ends
}

/** §2 sentences of one non-heading block; sentences without units are dropped. */
export function splitSentences(block: string, language: Language): Sentence[] {
  const sentences: Sentence[] = []
  let start = 0
  const push = (end: number) => {
    const text = block.slice(start, end).trim()
    const n = units(text)
    if (n > 0) sentences.push({ text, units: n })
    start = end
  }
  for (const end of sentenceEnds(block, language)) push(end)
  push(block.length)
  return sentences
}
