import { queryTerms, type Term } from '../../search/tokens.ts'
import { bucketOf, bucketUrl, docsUrl, type Bucket, type Doc, type Manifest } from '../shards.ts'

/**
 * The site's search, in the reader's browser (bundled by `bundle.ts`): the query is cut by the
 * same tokenizer as the index; for each segment the script fetches the bucket of each token (a
 * missing bucket holds nothing), keeps the posts holding every term (a Chinese run's bigrams all,
 * the last Latin word as a prefix), ranks them by summed weight, newest first on ties, and shows
 * the titles and summaries. Text is set as text, never as markup.
 */

const MAX_RESULTS = 50

const form = document.querySelector<HTMLFormElement>('form.search-form')
const input = form?.querySelector<HTMLInputElement>('input[name=q]')
const status = document.getElementById('search-status')
const results = document.getElementById('search-results')

const fetched = new Map<string, Promise<unknown>>()
function load<T>(url: string, missing: T): Promise<T> {
  let file = fetched.get(url)
  if (!file) {
    file = fetch(url).then((r) => {
      if (r.status === 404) return missing
      if (!r.ok) throw new Error(`${url}: ${r.status}`)
      return r.json()
    })
    // A failed read is tried again by the next search.
    file.catch(() => fetched.delete(url))
    fetched.set(url, file)
  }
  return file as Promise<T>
}

/** The posts in both maps, their weights combined. */
const both = (a: Map<number, number>, b: Map<number, number>, combine: (x: number, y: number) => number) =>
  new Map([...a].filter(([id]) => b.has(id)).map(([id, w]): [number, number] => [id, combine(w, b.get(id)!)]))

/** The posts of one bucket set holding a term, with the term's weight (a phrase: its rarest token's). */
function postingsOf(buckets: Map<string, Bucket>, term: Term): Map<number, number> {
  let found: Map<number, number> | null = null
  term.tokens.forEach((token, i) => {
    const bucket = buckets.get(token) ?? {}
    const prefix = term.prefix && i === term.tokens.length - 1
    const lists = prefix
      ? Object.keys(bucket)
          .filter((t) => t.startsWith(token))
          .map((t) => bucket[t]!)
      : [bucket[token] ?? []]
    const here = new Map<number, number>()
    for (const list of lists) for (let j = 0; j + 1 < list.length; j += 2) here.set(list[j]!, (here.get(list[j]!) ?? 0) + list[j + 1]!)
    found = found === null ? here : both(found, here, Math.min)
  })
  return found ?? new Map()
}

async function searchSegment(language: string, segment: number, terms: Term[]): Promise<Map<number, number>> {
  const tokens = [...new Set(terms.flatMap((t) => t.tokens))]
  const files = await Promise.all(tokens.map((t) => load<Bucket>(bucketUrl(language, segment, bucketOf(t)), {})))
  const buckets = new Map(tokens.map((t, i) => [t, files[i]!]))
  let scores: Map<number, number> | null = null
  for (const term of terms) {
    const hits = postingsOf(buckets, term)
    scores = scores === null ? hits : both(scores, hits, (x, y) => x + y)
    if (!scores.size) break
  }
  return scores ?? new Map()
}

function show(docs: Doc[]): void {
  const items = docs.map(([, title, path, summary]) => {
    const li = document.createElement('li')
    const link = document.createElement('a')
    link.href = path
    link.textContent = title
    li.append(link)
    if (summary) {
      const p = document.createElement('p')
      p.textContent = summary
      li.append(p)
    }
    return li
  })
  results!.replaceChildren(...items)
}

const say = (text: string) => (status!.textContent = text)

let latest = 0
async function run(query: string): Promise<void> {
  const words = form!.dataset
  const asked = ++latest
  const terms = queryTerms(query)
  if (!terms.length) {
    show([])
    say(words.idle!)
    return
  }
  say(words.searching!)
  try {
    const manifest = await load<Manifest>(words.index!, { segments: [] })
    const language = words.language!
    const scored = await Promise.all(manifest.segments.map((s) => searchSegment(language, s, terms).then((m) => ({ s, m }))))
    const hits = scored.flatMap(({ s, m }) => [...m].map(([id, score]) => ({ id, score, segment: s })))
    hits.sort((a, b) => b.score - a.score || b.id - a.id)
    const top = hits.slice(0, MAX_RESULTS)
    const segments = [...new Set(top.map((h) => h.segment))]
    const docs = new Map((await Promise.all(segments.map((s) => load<Doc[]>(docsUrl(language, s), [])))).flat().map((d) => [d[0], d]))
    if (asked !== latest) return
    const shown = top.map((h) => docs.get(h.id)).filter((d): d is Doc => d !== undefined)
    show(shown)
    say(shown.length ? words.found!.replace('{n}', String(shown.length)) : words.none!)
  } catch {
    if (asked === latest) say(words.failed!)
  }
}

if (form && input && status && results) {
  const initial = new URLSearchParams(location.search).get('q') ?? ''
  input.value = initial
  say(form.dataset.idle!)
  if (initial) void run(initial)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const url = new URL(location.href)
    url.searchParams.set('q', input.value)
    history.replaceState(null, '', url)
    void run(input.value)
  })
}
