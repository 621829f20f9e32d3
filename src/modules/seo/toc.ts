import { analyseBody, type BodyFacts, type Heading } from './html/document.ts'
import { clobbersDom, isSafeId } from '../../shared/safe-id.ts'
import type { TocItem } from './types.ts'

const MAX_ID = 64

/** §5 anchor of a heading text; CJK letters stay (percent-encoding is the client's job). */
export function anchorFromText(text: string): string {
  const slug = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
  const cut = [...slug].slice(0, MAX_ID).join('').replace(/-+$/, '')
  const id = cut === '' ? 'section' : cut
  // An id starting with a digit is awkward in CSS selectors.
  return /^\p{N}/u.test(id) ? `s-${id}` : id
}

export interface TocEntry {
  item: TocItem
  heading: Heading
}

/** TOC items with the headings they come from, so withHeadingIds can write each id back. */
export function tocEntries(body: Pick<BodyFacts, 'headings' | 'ids'>): TocEntry[] {
  const used = new Set<string>()
  // Where the search for a free `-n` resumes per base: ids are only ever added, so every lower
  // suffix is still taken. Without it, n repeated headings cost O(n²) (a 490 KB body of one
  // repeated heading took minutes on the request thread).
  const nextSuffix = new Map<string, number>()
  const entries: TocEntry[] = []
  for (const heading of body.headings) {
    if (!heading.inToc || heading.text === '') continue
    const own = heading.id
    let id: string
    // Only a safe token is kept (the id is decoded: `&quot;&gt;` arrives as `">`); anything else is replaced.
    if (own !== undefined && isSafeId(own) && !used.has(own)) {
      id = own
    } else {
      const base = anchorFromText(heading.text)
      id = base
      let n = nextSuffix.get(base) ?? 2
      while (used.has(id) || body.ids.has(id) || clobbersDom(id)) id = `${base}-${n++}`
      nextSuffix.set(base, n)
    }
    used.add(id)
    entries.push({ item: { id, text: heading.text, title: heading.text, level: heading.level }, heading })
  }
  return entries
}

/** §5 table of contents of a body. */
export const tocOf = (body: Pick<BodyFacts, 'headings' | 'ids'>): TocItem[] => tocEntries(body).map((entry) => entry.item)

export const toc = (html: string): TocItem[] => tocOf(analyseBody(html))
