import type { Sentence } from './sentences.ts'
import { wordRuns } from './units.ts'

const A = 97
const Z = 122
const E = 101
const L = 108
const VOWELS = new Set([...'aeiouy'].map((vowel) => vowel.charCodeAt(0)))

/** Syllable estimate of §4: vowel groups, a silent final "e" (but not "-le"), at least one. */
export function syllables(word: string): number {
  // An ASCII word (nearly every English one) in one pass over its char codes, letters lower-cased
  // and everything else skipped as the rule's form below does; others take that form itself.
  let count = 0
  let letters = 0
  let inVowels = false
  let last = 0
  let beforeLast = 0
  for (let i = 0; i < word.length; i++) {
    const raw = word.charCodeAt(i)
    if (raw > 127) return syllablesOfAny(word)
    const code = raw >= 65 && raw <= 90 ? raw + 32 : raw
    if (code < A || code > Z) continue
    letters++
    if (VOWELS.has(code) && !inVowels) count++
    inVowels = VOWELS.has(code)
    beforeLast = last
    last = code
  }
  if (letters === 0) return 1
  if (last === E && beforeLast !== L && count > 1) count -= 1
  return Math.max(1, count)
}

function syllablesOfAny(word: string): number {
  const letters = word.toLowerCase().replace(/[^a-z]/g, '')
  if (letters === '') return 1
  let count = letters.match(/[aeiouy]+/g)?.length ?? 0
  if (letters.endsWith('e') && !letters.endsWith('le') && count > 1) count -= 1
  return Math.max(1, count)
}

/**
 * Scores already computed, by sentence list: the checks of one autofix share one list
 * (context.ts rememberingAnalyse), and every word's syllables are the costliest pass of a check.
 */
const scored = new WeakMap<readonly Sentence[], number | null>()

/** Flesch reading ease over §2 sentences, clamped 0–100, one decimal; null without words. */
export function fleschReadingEase(sentences: readonly Sentence[]): number | null {
  const known = scored.get(sentences)
  if (known !== undefined) return known
  const score = scoreOf(sentences)
  scored.set(sentences, score)
  return score
}

function scoreOf(sentences: readonly Sentence[]): number | null {
  let words = 0
  let syllableCount = 0
  for (const sentence of sentences) {
    for (const word of wordRuns(sentence.text)) {
      words += 1
      syllableCount += syllables(word)
    }
  }
  if (words === 0) return null
  const score = 206.835 - 1.015 * (words / sentences.length) - 84.6 * (syllableCount / words)
  return Math.round(Math.min(100, Math.max(0, score)) * 10) / 10
}
