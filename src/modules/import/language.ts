import type { Language } from '../../shared/language.ts'

export type LanguageChoice = Language | 'auto'

const HAN = /\p{Script=Han}/u
const LATIN = /[A-Za-z]/

/**
 * `--language auto`: Chinese when Han characters are at least a third of the letters of the
 * title and the first 2,000 characters of the text (one left-to-right scan), else English.
 */
export function languageOf(choice: LanguageChoice, title: string, text: string): Language {
  if (choice !== 'auto') return choice
  let han = 0
  let latin = 0
  for (const char of title + ' ' + text.slice(0, 2000)) {
    if (HAN.test(char)) han++
    else if (LATIN.test(char)) latin++
  }
  // A Latin word is some five letters to one Han character's word.
  return han > 0 && han * 3 >= han + latin / 5 ? 'zh' : 'en'
}
