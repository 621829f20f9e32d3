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

function count(text: string, pattern: RegExp): number {
  let n = 0
  for (const _ of text.matchAll(pattern)) n += 1
  return n
}
