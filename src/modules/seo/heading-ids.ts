import { analyseBody, type BodyFacts } from './html/document.ts'
import { tocEntries } from './toc.ts'

/** An attribute inside a start tag; quoted values are consumed whole so `title="a id=b"` is not mistaken for an id. */
const ATTRIBUTE = /\s([^\s"'>\/=]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g
const TAG_NAME = /^<[a-zA-Z][a-zA-Z0-9:-]*/

function withId(startTag: string, id: string): string {
  for (const match of startTag.matchAll(ATTRIBUTE)) {
    if (match[1]?.toLowerCase() === 'id') {
      return `${startTag.slice(0, match.index)} id="${id}"${startTag.slice(match.index + match[0].length)}`
    }
  }
  const nameEnd = TAG_NAME.exec(startTag)?.[0].length ?? 0
  return `${startTag.slice(0, nameEnd)} id="${id}"${startTag.slice(nameEnd)}`
}

/**
 * Writes the TOC ids (§5) onto their h2/h3 start tags so TOC links resolve on the public page. Only
 * those start tags change; an existing usable id is kept. Idempotent, because every TOC heading
 * then carries its own usable id, which the TOC keeps.
 */
export function withHeadingIds(html: string, body: BodyFacts = analyseBody(html)): string {
  const parts: string[] = []
  let copied = 0
  for (const { item, heading } of tocEntries(body)) {
    if (heading.id === item.id) continue
    parts.push(html.slice(copied, heading.start), withId(html.slice(heading.start, heading.end), item.id))
    copied = heading.end
  }
  parts.push(html.slice(copied))
  return parts.join('')
}
