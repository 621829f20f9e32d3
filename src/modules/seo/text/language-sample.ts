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
  return { han: count(text, HAN), latin: count(text, LATIN_RUNS) }
}

/** Matches of a global pattern, counted in one native scan (matchAll's iterator costs an object a match). */
const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0
