import { countMatches } from './units.ts'

const HAN = /\p{Script=Han}/gu
const LATIN_RUNS = /\p{Script=Latin}+/gu

export interface LanguageSample {
  /** Han letters. */
  han: number
  /** Runs of Latin letters (roughly English words). */
  latin: number
}

/** §2 language sample over title + body text. */
export function languageSample(text: string): LanguageSample {
  return { han: countMatches(text, HAN), latin: countMatches(text, LATIN_RUNS) }
}
