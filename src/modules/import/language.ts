import type { Language } from '../../shared/language.ts'

export type LanguageChoice = Language | 'auto'

const HAN = /\p{Script=Han}/u
/** No code point below this is Han (the CJK radicals start here), so most letters skip the Unicode test. */
const FIRST_HAN = 0x2e80
/** A code unit that may be (part of) a Han character: without one the text is English at once. */
const MAYBE_HAN = /[\u2e80-\uffff]/

/**
 * `--language auto`: Chinese when Han characters are at least a third of the letters of the
 * title and the first 2,000 characters of the text (one left-to-right scan), else English.
 */
export function languageOf(choice: LanguageChoice, title: string, text: string): Language {
  if (choice !== 'auto') return choice
  let han = 0
  let latin = 0
  const sample = title + ' ' + text.slice(0, 2000)
  if (!MAYBE_HAN.test(sample)) return 'en'
  for (let i = 0; i < sample.length; i++) {
    const code = sample.codePointAt(i)!
    if (code > 0xffff) i++
    if (code < 0x80) {
      // A-Z, a-z
      if ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) latin++
    } else if (code >= FIRST_HAN && HAN.test(String.fromCodePoint(code))) han++
  }
  // A Latin word is some five letters to one Han character's word.
  return han > 0 && han * 3 >= han + latin / 5 ? 'zh' : 'en'
}
