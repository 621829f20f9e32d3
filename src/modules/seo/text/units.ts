/** §2 "CJK letter": Han, Hiragana, Katakana or Hangul. Punctuation (，。) is script Common, so it is not a letter. */
const CJK_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
const CJK_LETTERS = new RegExp(CJK_LETTER.source, 'gu')
/** A word run: letters/digits joined by ' ’ . - ("don't", "node.js", "e-mail" are one word each). */
const WORD_RUNS = /[\p{L}\p{N}]+(?:['’.\-][\p{L}\p{N}]+)*/gu
/** Width 2 (§2): CJK letters plus the CJK symbols block and full-width forms. */
const WIDE = /[\u3000-\u303F\uFF00-\uFFEF]/u

export const isCjkLetter = (char: string): boolean => CJK_LETTER.test(char)

export const collapseWhitespace = (text: string): string => text.replace(/\s+/g, ' ').trim()

export const isBlank = (text: string | null | undefined): boolean => !text || text.trim() === ''

/** Non-CJK word runs of `text`, after blanking CJK letters so "用Docker" yields "Docker". */
export function wordRuns(text: string): string[] {
  return text.replace(CJK_LETTERS, ' ').match(WORD_RUNS) ?? []
}

/** `u(text)` of §2: English counts words, Chinese counts characters, one function for both. */
export function units(text: string): number {
  // Text without a CJK letter (most English text) is counted in one native scan.
  if (!CJK_LETTER.test(text)) return text.match(WORD_RUNS)?.length ?? 0
  let cjk = 0
  const blanked = text.replace(CJK_LETTERS, () => {
    cjk += 1
    return ' '
  })
  return cjk + (blanked.match(WORD_RUNS)?.length ?? 0)
}

/** Field length of §2: code points after trim and whitespace collapse, punctuation included. */
export const fieldLength = (text: string): number => [...collapseWhitespace(text)].length

/** SEO title width of §2, a proxy for Yoast's pixel width. */
export function width(text: string): number {
  let total = 0
  for (const char of collapseWhitespace(text)) total += charWidth(char)
  return total
}

export const charWidth = (char: string): number => (CJK_LETTER.test(char) || WIDE.test(char) ? 2 : 1)

/** Case- and space-insensitive form, for "equal to the title" and "no duplicates". */
export const comparableText = (text: string): string => collapseWhitespace(text).toLowerCase()
