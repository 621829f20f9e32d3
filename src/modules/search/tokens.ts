/**
 * The one tokenizer of search, shared by the server's FTS5 index, the site's static index and the
 * site's search script (bundled for the browser, so nothing here may need Node or Bun).
 *
 * Words are runs of letters, digits and marks, lowercased and NFKC-folded (full-width Latin reads
 * as Latin). Chinese (and Japanese, Korean) text has no spaces, and a dictionary segmenter
 * (`Intl.Segmenter`, ICU) cuts "数据库" into "数据|库" but "图书馆" into "图书|馆": a reader looking
 * for a two-character word inside a longer one would miss it. So each run of CJK characters is
 * indexed as overlapping character bigrams (its last character also alone), and a query's run
 * becomes the phrase of its bigrams: any substring of two or more characters is found, one
 * character by prefix. bench/search.bench.ts measures this against Intl.Segmenter words
 * (precision and recall on written queries, docs/search.md); it is also ~10× cheaper, as it needs
 * no dictionary, only one left-to-right pass.
 */

const CJK_CHARS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}'
const CJK = new RegExp(`[${CJK_CHARS}]`, 'u')
/** A CJK run, or a run of other letters, digits and marks (set difference: the `v` flag). */
const UNIT = new RegExp(`[${CJK_CHARS}]+|[[\\p{L}\\p{N}\\p{M}]--[${CJK_CHARS}]]+`, 'gv')
/** A word longer than this is no word anyone searches for (a URL, a hash): cut, so tokens stay bounded. */
const MAX_WORD = 40

/** One searched-for unit: its tokens must appear in this order, adjacent (a phrase); `prefix`: the last may continue. */
export interface Term {
  tokens: string[]
  prefix: boolean
}

interface Unit {
  cjk: boolean
  chars: string[]
}

function bigrams(run: string[]): string[] {
  if (run.length === 1) return [run[0]!]
  const out: string[] = []
  for (let i = 0; i + 1 < run.length; i++) out.push(run[i]! + run[i + 1]!)
  return out
}

/** Words (Latin) and CJK runs of a text, in order: one left-to-right pass. */
function units(text: string): Unit[] {
  const out: Unit[] = []
  for (const [piece] of text.normalize('NFKC').toLowerCase().matchAll(UNIT))
    out.push(CJK.test(piece) ? { cjk: true, chars: [...piece] } : { cjk: false, chars: [piece.slice(0, MAX_WORD)] })
  return out
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
  const terms = units(query)
    .slice(0, max)
    .map((unit): Term =>
      unit.cjk ? { tokens: bigrams(unit.chars), prefix: unit.chars.length === 1 } : { tokens: unit.chars, prefix: false },
    )
  const last = terms[terms.length - 1]
  if (last && last.tokens.length === 1 && !CJK.test(last.tokens[0]!)) last.prefix = true
  return terms
}
