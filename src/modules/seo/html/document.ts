import { collapseWhitespace, units } from '../text/units.ts'
import { walkHtml, type HtmlElement } from './parse.ts'

/** §2: subtrees whose text is not body text. */
const EXCLUDED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'pre', 'code'])
/** §2: elements that end a block of text. */
const BLOCK = new Set([
  'p',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'figcaption',
  'td',
  'th',
  'dd',
  'dt',
  'div',
  'section',
  'br',
])
/** §5: headings quoted or shown as code are not part of the TOC. */
const NOT_IN_TOC = new Set(['pre', 'code', 'blockquote'])
const HEADING = /^h([1-6])$/

export interface Block {
  text: string
  units: number
  heading: boolean
}

export interface Heading {
  level: number
  text: string
  /** The heading's own `id` attribute, if any. */
  id: string | undefined
  /** §5 TOC candidate: h2/h3 outside pre/code/blockquote. */
  inToc: boolean
  /** Start tag offsets in the source html. */
  start: number
  end: number
}

export interface Paragraph {
  text: string
  units: number
}

export interface BodyImage {
  src: string | undefined
  alt: string | undefined
  role: string | undefined
  ariaHidden: string | undefined
}

export interface BodyLink {
  href: string
  rel: string
}

/** Everything the rules read from `contentHtml`, gathered in one parse and one walk. */
export interface BodyFacts {
  blocks: Block[]
  /** Body text of §2, blocks separated by newlines. */
  text: string
  units: number
  /** Outline headings h1–h6 (outside excluded subtrees), in order. */
  headings: Heading[]
  /** Name of the first element in the body, for "the H1 comes first". */
  firstElement: string | undefined
  paragraphs: Paragraph[]
  /** §2 section lengths: section 0 is the text before the first h2/h3/h4. */
  sections: number[]
  images: BodyImage[]
  links: BodyLink[]
  /** img/source src and video src/poster, in document order. */
  mediaUrls: string[]
  /**
   * img and source elements left with no URL at all (no src, no srcset): the sanitizer removed
   * what the author sent (`javascript:`, `file:`…), so each publishes as a hole (broken_media_url).
   */
  mediaWithoutUrl: number
  /** Every `id` attribute in the document (TOC ids must not collide with them). */
  ids: Set<string>
}

/** An element whose text is still being collected; its entry in `facts` is filled in when it closes. */
interface Open<T> {
  entry: T
  parts: string[]
}

export function analyseBody(html: string): BodyFacts {
  const facts: BodyFacts = {
    blocks: [],
    text: '',
    units: 0,
    headings: [],
    firstElement: undefined,
    paragraphs: [],
    sections: [],
    images: [],
    links: [],
    mediaUrls: [],
    mediaWithoutUrl: 0,
    ids: new Set(),
  }
  let excluded = 0
  let template = 0
  let notInToc = 0
  let block: string[] = []
  let section = 0
  const headings: Open<Heading>[] = []
  const paragraphs: Open<Paragraph>[] = []

  // A paragraph's or heading's text is usually its block's too (both end a block): measured once for both.
  let last = { raw: '', text: '', units: 0 }
  const measure = (parts: string[]) => {
    const raw = parts.join('')
    if (raw !== last.raw) {
      const text = collapseWhitespace(raw)
      last = { raw, text, units: units(text) }
    }
    return last
  }

  const endBlock = () => {
    const { text, units: n } = measure(block)
    block = []
    if (text === '') return
    const heading = headings.length > 0
    facts.blocks.push({ text, units: n, heading })
    facts.units += n
    if (!heading) section += n
  }

  const collect = (element: HtmlElement) => {
    const { name, attrs } = element
    if (attrs.id !== undefined && attrs.id !== '') facts.ids.add(attrs.id)
    if (name === 'img') facts.images.push({ src: attrs.src, alt: attrs.alt, role: attrs.role, ariaHidden: attrs['aria-hidden'] })
    if ((name === 'img' || name === 'source' || name === 'video') && attrs.src !== undefined) facts.mediaUrls.push(attrs.src)
    if (name === 'video' && attrs.poster !== undefined) facts.mediaUrls.push(attrs.poster)
    if ((name === 'img' || name === 'source') && attrs.src === undefined && attrs.srcset === undefined) facts.mediaWithoutUrl++
    if (name === 'a' && attrs.href !== undefined) facts.links.push({ href: attrs.href, rel: attrs.rel ?? '' })
  }

  walkHtml(html, {
    open(element) {
      const { name } = element
      facts.firstElement ??= name
      if (template > 0 || name === 'template') {
        template += 1
        return
      }
      collect(element)
      if (BLOCK.has(name)) endBlock()
      if (EXCLUDED.has(name)) excluded += 1
      if (NOT_IN_TOC.has(name)) notInToc += 1
      if (excluded > 0) return
      const level = HEADING.exec(name)?.[1]
      if (level !== undefined) {
        const n = Number(level)
        const entry: Heading = {
          level: n,
          text: '',
          id: element.attrs.id,
          inToc: (n === 2 || n === 3) && notInToc === 0,
          start: element.start,
          end: element.end,
        }
        facts.headings.push(entry)
        headings.push({ entry, parts: [] })
        if (n >= 2 && n <= 4) {
          facts.sections.push(section)
          section = 0
        }
      } else if (name === 'p') {
        const entry: Paragraph = { text: '', units: 0 }
        facts.paragraphs.push(entry)
        paragraphs.push({ entry, parts: [] })
      }
    },
    close(element) {
      const { name } = element
      if (template > 0) {
        template -= 1
        return
      }
      if (BLOCK.has(name)) endBlock()
      if (NOT_IN_TOC.has(name)) notInToc -= 1
      if (EXCLUDED.has(name)) {
        excluded -= 1
        return
      }
      if (excluded > 0) return
      if (HEADING.test(name)) closeHeading(headings.pop())
      else if (name === 'p') closeParagraph(paragraphs.pop())
    },
    text(text) {
      if (excluded > 0 || template > 0) return
      block.push(text)
      // Nested headings or paragraphs (a <p> inside an <h2>, say) credit only the innermost one, keeping the walk linear.
      headings[headings.length - 1]?.parts.push(text)
      paragraphs[paragraphs.length - 1]?.parts.push(text)
    },
  })
  endBlock()
  facts.sections.push(section)
  // Elements left open at the end of the document still count.
  while (headings.length > 0) closeHeading(headings.pop())
  while (paragraphs.length > 0) closeParagraph(paragraphs.pop())
  facts.text = facts.blocks.map((b) => b.text).join('\n')
  return facts

  function closeHeading(open: Open<Heading> | undefined) {
    if (open) open.entry.text = measure(open.parts).text
  }
  function closeParagraph(open: Open<Paragraph> | undefined) {
    if (!open) return
    const { text, units: n } = measure(open.parts)
    open.entry.text = text
    open.entry.units = n
  }
}
