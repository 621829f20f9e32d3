/** §2 "CJK letter": Han, Hiragana, Katakana or Hangul. Punctuation (，。) is script Common, so it is not a letter. */
const CJK_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
const CJK_LETTERS = new RegExp(CJK_LETTER.source, 'gu')
/** A word run: letters/digits joined by ' ’ . - ("don't", "node.js", "e-mail" are one word each). */
const WORD_RUNS = /[\p{L}\p{N}]+(?:['’.\-][\p{L}\p{N}]+)*/gu
/** Width 2 (§2): CJK letters plus the CJK symbols block and full-width forms. */
const WIDE = /[\u3000-\u303F\uFF00-\uFFEF]/u

export const isCjkLetter = (char: string): boolean => CJK_LETTER.test(char)

/** Whitespace that collapsing would change: a run of two, or any other than a plain space. */
const UNCOLLAPSED = /\s{2}|[^\S ]/
/** A surrogate pair: one code point in two UTF-16 units. */
const SURROGATE_PAIRS = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g

/** Text already collapsed (most of a body's blocks and sentences) is only trimmed, not copied. */
export const collapseWhitespace = (text: string): string => (UNCOLLAPSED.test(text) ? text.replace(/\s+/g, ' ') : text).trim()

export const isBlank = (text: string | null | undefined): boolean => !text || text.trim() === ''

/** Non-CJK word runs of `text`, after blanking CJK letters so "用Docker" yields "Docker". */
export function wordRuns(text: string): string[] {
  return text.replace(CJK_LETTERS, ' ').match(WORD_RUNS) ?? []
}

/** Matches of a global pattern, counted in one native scan (matchAll's iterator costs an object a match). */
export const countMatches = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0

/** `u(text)` of §2: English counts words, Chinese counts characters, one function for both. */
export function units(text: string): number {
  // Text without a CJK letter (most English text) is counted in one native scan.
  if (!CJK_LETTER.test(text)) return countMatches(text, WORD_RUNS)
  let cjk = 0
  const blanked = text.replace(CJK_LETTERS, () => {
    cjk += 1
    return ' '
  })
  return cjk + countMatches(blanked, WORD_RUNS)
}

/** Field length of §2: code points after trim and whitespace collapse, punctuation included. */
export function fieldLength(text: string): number {
  const collapsed = collapseWhitespace(text)
  // Code points without spreading the string into an array of them: units less the pairs.
  return collapsed.length - (collapsed.match(SURROGATE_PAIRS)?.length ?? 0)
}

/** SEO title width of §2, a proxy for Yoast's pixel width. */
export function width(text: string): number {
  let total = 0
  for (const char of collapseWhitespace(text)) total += charWidth(char)
  return total
}

export const charWidth = (char: string): number => (CJK_LETTER.test(char) || WIDE.test(char) ? 2 : 1)

/** Case- and space-insensitive form, for "equal to the title" and "no duplicates". */
export const comparableText = (text: string): string => collapseWhitespace(text).toLowerCase()
