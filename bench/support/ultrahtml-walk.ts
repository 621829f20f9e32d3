// The SEO HTML walk as it was before htmlparser2 (ultrahtml plus workarounds and a 40-entity table),
// kept only as the baseline of bench/seo-html.bench.ts.
import { ELEMENT_NODE, parse, TEXT_NODE, type DocumentNode, type ElementNode, type Node } from 'ultrahtml'
import type { HtmlElement, HtmlVisitor } from '../../src/modules/seo/html/parse.ts'
/**
 * The named entities editors and HTML sanitizers actually emit. An unknown name is left as written,
 * which only matters for counting if a post uses an exotic entity inside a word.
 */
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00A0',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
  shy: '\u00AD',
  zwj: '\u200D',
  zwnj: '\u200C',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  laquo: '«',
  raquo: '»',
  lsaquo: '‹',
  rsaquo: '›',
  copy: '©',
  reg: '®',
  trade: '™',
  deg: '°',
  middot: '·',
  bull: '•',
  times: '×',
  divide: '÷',
  plusmn: '±',
  para: '¶',
  sect: '§',
  cent: '¢',
  pound: '£',
  yen: '¥',
  euro: '€',
}

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));?/g

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED[name] ?? whole
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16)
    // Invalid code points decode to U+FFFD as in browsers instead of throwing from fromCodePoint.
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\uFFFD'
  })
}

/*
 * ultrahtml is a regex tokenizer. Three inputs make it slow or throw, so `neutralize` rewrites them
 * into same-length text first (offsets stay valid for withHeadingIds):
 * - a "<" after the last ">" can never start a tag, but each one makes the regex scan to the end (quadratic);
 * - the same for "<!--" after the last "-->";
 * - a long whitespace run inside a tag is rescanned at every position (quadratic), so runs are capped.
 * A stray end tag before any start tag throws in ultrahtml; an empty leading comment prevents that.
 */
const LT = '\uFDD0'
const EXTRA_SPACE = '\uFDD1'
const SPACE_RUN_CAP = 16
const GUARD = '<!---->'
const LONG_SPACE_RUN = new RegExp(`\\s{${SPACE_RUN_CAP + 1},}`, 'g')

function neutralize(html: string): string {
  const lastGt = html.lastIndexOf('>')
  const lastCommentEnd = html.lastIndexOf('-->')
  return html
    .replace(/<(!--)?/g, (match, comment: string | undefined, offset: number) =>
      offset > lastGt || (comment !== undefined && offset > lastCommentEnd) ? LT + match.slice(1) : match,
    )
    .replace(LONG_SPACE_RUN, (run) => run.slice(0, SPACE_RUN_CAP) + EXTRA_SPACE.repeat(run.length - SPACE_RUN_CAP))
}

/** Undo `neutralize` and decode entities in text or an attribute value. */
const restore = (raw: string): string =>
  decodeEntities(raw.includes(LT) || raw.includes(EXTRA_SPACE) ? raw.replaceAll(LT, '<').replaceAll(EXTRA_SPACE, '') : raw)

function parseDocument(html: string): DocumentNode {
  try {
    return parse(GUARD + neutralize(html)) as DocumentNode
  } catch {
    // No input found so far reaches this; should ultrahtml still fail, judge the post as plain text.
    return parse(html.replace(/<[^>]*>?/g, ' ')) as DocumentNode
  }
}

function toElement(node: ElementNode): HtmlElement {
  const attrs: Record<string, string> = {}
  for (const [key, value] of Object.entries(node.attributes ?? {})) {
    const name = key.toLowerCase()
    if (!(name in attrs)) attrs[name] = restore(String(value))
  }
  const loc = node.loc?.[0]
  return {
    name: String(node.name).toLowerCase(),
    attrs,
    start: (loc?.start ?? GUARD.length) - GUARD.length,
    end: (loc?.end ?? GUARD.length) - GUARD.length,
  }
}

interface Frame {
  children: readonly Node[]
  next: number
  element: HtmlElement | null
}

/**
 * Visits the document in order with an explicit stack: ultrahtml's own walkers recurse and
 * overflow on 10,000 nested elements.
 */
export function walkHtml(html: string, visitor: HtmlVisitor): void {
  const stack: Frame[] = [{ children: parseDocument(html).children, next: 0, element: null }]
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame
    const node = frame.children[frame.next++]
    if (node === undefined) {
      stack.pop()
      if (frame.element) visitor.close(frame.element)
    } else if (node.type === TEXT_NODE) {
      visitor.text(restore(String(node.value)))
    } else if (node.type === ELEMENT_NODE) {
      const element = toElement(node as ElementNode)
      visitor.open(element)
      stack.push({ children: (node as ElementNode).children ?? [], next: 0, element })
    }
    // Comments and "<!...>" nodes carry no text.
  }
}
