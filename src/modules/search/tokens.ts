/**
 * The one tokenizer of search, shared by the server's FTS5 index, the site's static index and the
 * site's search script (bundled for the browser, so nothing here may need Node or Bun).
 *
 * Text is split into words by `Intl.Segmenter`. Latin (and any other spaced script) words are
 * lowercased, NFKC-folded tokens. Chinese (and Japanese, Korean) text has no spaces and ICU's
 * dictionary cuts "数据库" into "数据|库" but "管理员" into "管理|员": a reader looking for a
 * two-character word inside a longer one would miss it. So each run of CJK characters is indexed
 * as overlapping character bigrams (its last character also alone), and a query's run becomes the
 * phrase of its bigrams: any substring of two or more characters is found, one character by prefix.
 * docs/search.md gives the precision measured against segmenter words.
 */

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
const NOT_WORD = /[^\p{L}\p{N}]+/gu
/** A word longer than this is no word anyone searches for (a URL, a hash): cut, so tokens stay bounded. */
const MAX_WORD = 40

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' })

/** One searched-for unit: its tokens must appear in this order, adjacent (a phrase); `prefix`: the last may continue. */
export interface Term {
  tokens: string[]
  prefix: boolean
}

function bigrams(run: string[]): string[] {
  if (run.length === 1) return [run[0]!]
  const out: string[] = []
  for (let i = 0; i + 1 < run.length; i++) out.push(run[i]! + run[i + 1]!)
  return out
}

/** Words (Latin) and CJK runs of a text, in order: one left-to-right pass. */
function* units(text: string): Generator<{ cjk: boolean; chars: string[] }> {
  let run: string[] = []
  for (const { segment, isWordLike } of segmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (isWordLike && CJK.test(segment)) {
      for (const ch of segment) {
        if (CJK.test(ch)) run.push(ch)
        else {
          if (run.length) yield { cjk: true, chars: run }
          run = []
        }
      }
      continue
    }
    if (run.length) yield { cjk: true, chars: run }
    run = []
    if (!isWordLike) continue
    for (const word of segment.split(NOT_WORD)) if (word) yield { cjk: false, chars: [word.slice(0, MAX_WORD)] }
  }
  if (run.length) yield { cjk: true, chars: run }
}

/** The tokens a text is indexed under. */
export function indexTokens(text: string): string[] {
  const out: string[] = []
  for (const unit of units(text)) {
    if (!unit.cjk) out.push(unit.chars[0]!)
    else {
      out.push(...bigrams(unit.chars))
      if (unit.chars.length > 1) out.push(unit.chars[unit.chars.length - 1]!)
    }
  }
  return out
}

/** A query's terms (at most `max`); every one must match. The last Latin word and single CJK characters match as prefixes. */
export function queryTerms(query: string, max = 12): Term[] {
  const terms: Term[] = []
  for (const unit of units(query)) {
    if (terms.length === max) break
    terms.push(unit.cjk ? { tokens: bigrams(unit.chars), prefix: unit.chars.length === 1 } : { tokens: unit.chars, prefix: false })
  }
  const last = terms[terms.length - 1]
  if (last && last.tokens.length === 1 && !CJK.test(last.tokens[0]!)) last.prefix = true
  return terms
}
