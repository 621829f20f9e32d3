import { Parser } from 'htmlparser2'

/** An element as the rules see it: lower-case name, lower-case attribute names, decoded values. */
export interface HtmlElement {
  name: string
  attrs: Readonly<Record<string, string>>
  /** Offsets of the start tag in the caller's html (`end` exclusive), so an attribute can be written back in place. */
  start: number
  end: number
}

export interface HtmlVisitor {
  open(element: HtmlElement): void
  close(element: HtmlElement): void
  text(text: string): void
}

/**
 * Open elements one parser keeps. htmlparser2 keeps them with `unshift` and looks an end tag up
 * with `indexOf`, so a parser's cost grows with depth × tags; at this depth (the sanitizer's
 * MAX_NESTING: no body deeper is ever stored) the open elements are closed and a fresh parser goes
 * on from that start tag, which keeps every pass linear whatever the input.
 */
const DEPTH_CAP = 256
const RESTART = new Error('depth cap reached')

/**
 * Visits the document in order as htmlparser2 tokenizes it: one linear pass with the offsets of
 * every start tag, full HTML entity decoding (the `entities` tables) of text and attribute values,
 * and the HTML rules for implied ends (`<p>` closes an open `<p>`, void elements close at once, an
 * end tag closes what it encloses). Nothing is built: no tree to recurse into. A stray `</p>` is
 * an empty paragraph and a tag cut off by the end of the input is dropped, as browsers do.
 */
export function walkHtml(html: string, visitor: HtmlVisitor): void {
  const open: HtmlElement[] = []
  let offset = 0
  for (;;) {
    let restartAt = -1
    const base = offset
    const parser: Parser = new Parser(
      {
        onopentag(name, attrs) {
          if (open.length >= DEPTH_CAP) {
            restartAt = base + parser.startIndex
            throw RESTART
          }
          const element: HtmlElement = { name, attrs, start: base + parser.startIndex, end: base + parser.endIndex + 1 }
          open.push(element)
          visitor.open(element)
        },
        onclosetag() {
          const element = open.pop()
          if (element) visitor.close(element)
        },
        ontext: (text) => visitor.text(text),
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    )
    try {
      parser.end(offset === 0 ? html : html.slice(offset))
      return
    } catch (error) {
      if (error !== RESTART) throw error
    }
    while (open.length > 0) visitor.close(open.pop()!)
    offset = restartAt
  }
}
