import render from 'dom-serializer'
import { Element, isTag, type ChildNode, type ParentNode } from 'domhandler'
import { textContent } from 'domutils'
import type { HLJSApi } from 'highlight.js'
import { parseDocument } from 'htmlparser2'
import type { Language } from '../../shared/language.ts'
import { recentMemo } from '../../shared/memo.ts'
import { WORDS } from './templates/words.ts'
import { SIZES } from './templates/picture.tsx'
import { noImages, type ImageLookup } from '../media/responsive.ts'

/**
 * A post's stored body made ready to read, at render time (the stored HTML stays as written):
 * - every table and code block is a focusable, labelled scroll region (`role=region`,
 *   `tabindex=0`, `aria-label` "Table 2: caption" / "Code 1 (TypeScript)"), so a keyboard can
 *   scroll what is wider than a phone (axe `scrollable-region-focusable`);
 * - code marked `language-x` (Markdown fences, most editors) is highlighted by highlight.js into
 *   classed spans the theme colours: no client script, and no inline style the page's CSP
 *   (`style-src 'self'`) would refuse. Code without a known language is left plain, never guessed.
 * - images load lazily and decode off the main thread unless the body says otherwise; our own
 *   uploads become a `<picture>` of their variants with their intrinsic size (media/responsive.ts),
 *   images from elsewhere keep their plain `<img>`.
 * One parse and one serialization, both linear (htmlparser2); the bodies done last are kept.
 */

/**
 * highlight.js with its common languages, loaded at the first code block rendered: its load costs
 * ~40 ms of CPU in every thread that makes it (the render loop's and each render thread's), which
 * a site without code, or a thread that renders none, never needs.
 */
let highlighter: HLJSApi | null = null
const hljs = (): HLJSApi => (highlighter ??= require('highlight.js/lib/common') as HLJSApi)

const CODE_LANGUAGE = /(?:^|\s)lang(?:uage)?-([\w+#-]{1,32})(?:\s|$)/
/**
 * Highlighting costs about a millisecond per block of ordinary size: past these bounds the rest
 * of a body's code is shown plain, so no body can hold a render for long.
 */
const HIGHLIGHTED_BLOCKS = 100
const HIGHLIGHTED_CHARS = 20_000

function codeOf(pre: Element): { code: Element; language: string } | null {
  const code = pre.children.find((c): c is Element => isTag(c) && c.name === 'code')
  if (!code) return null
  const named = CODE_LANGUAGE.exec(code.attribs.class ?? '')?.[1]?.toLowerCase() ?? ''
  return { code, language: named && hljs().getLanguage(named) ? named : '' }
}

function highlight(code: Element, language: string) {
  const text = textContent(code)
  if (text.length > HIGHLIGHTED_CHARS) return
  const html = hljs().highlight(text, { language, ignoreIllegals: true }).value
  const spans = parseDocument(html).children
  for (const child of spans) child.parent = code
  code.children = spans
  code.attribs.class = `${code.attribs.class ?? ''} hljs`.trim()
}

function scrollRegion(node: Element, label: string): Element {
  const wrapper = new Element('div', { class: 'scroll', role: 'region', tabindex: '0', 'aria-label': label })
  wrapper.parent = node.parent
  wrapper.children = [node]
  node.parent = wrapper
  return wrapper
}

/** An `<img>` of ours as a `<picture>` of its variants; any other image as it is. */
function responsive(img: Element, images: ImageLookup): Element {
  const image = images(img.attribs.src ?? '')
  if (!image) return img
  img.attribs.width = String(image.width)
  img.attribs.height = String(image.height)
  if (!image.srcset) return img
  Object.assign(img.attribs, { src: image.src, srcset: image.srcset, sizes: SIZES.column })
  if (!image.sources.length) return img
  const picture = new Element('picture', {})
  picture.parent = img.parent
  picture.children = [...image.sources.map((s) => new Element('source', { type: s.type, srcset: s.srcset, sizes: SIZES.column })), img]
  for (const child of picture.children) child.parent = picture
  return picture
}

function readable(html: string, language: Language, images: ImageLookup): string {
  const w = WORDS[language]
  const doc = parseDocument(html)
  let tables = 0
  let blocks = 0
  const visit = (parent: ParentNode) => {
    parent.children = parent.children.map((node: ChildNode) => {
      if (!isTag(node)) return node
      if (node.name === 'table') {
        const caption = node.children.find((c): c is Element => isTag(c) && c.name === 'caption')
        const text = caption ? textContent(caption).trim().slice(0, 80) : ''
        return scrollRegion(node, `${w.table} ${++tables}${text ? `: ${text}` : ''}`)
      }
      if (node.name === 'pre') {
        const found = codeOf(node)
        if (found?.language && blocks < HIGHLIGHTED_BLOCKS) highlight(found.code, found.language)
        const name = found?.language ? hljs().getLanguage(found.language)!.name : ''
        return scrollRegion(node, `${w.code} ${++blocks}${name ? ` (${name})` : ''}`)
      }
      if (node.name === 'img') {
        // Below the cover and the lede: never in the first screenful, so never in the way of it.
        node.attribs.loading ??= 'lazy'
        node.attribs.decoding ??= 'async'
        return responsive(node, images)
      }
      visit(node)
      return node
    })
  }
  visit(doc)
  return render(doc, { encodeEntities: 'utf8', emptyAttrs: true })
}

/** Bodies of ordinary size only are kept (as the Markdown twin's are), so the memo stays within a few MB. */
const BODY_MAX = 65_536
const bodies = recentMemo<string, string>(64)

/** The `src` of every `<img>`, in order (ours never hold an entity): bounded steps per tag, so one linear scan. */
const IMG_SRC = /<img\b[^>]{0,4000}?\ssrc="([^"]{0,2000})"/gi

/**
 * The body as the post page shows it. The memo's key holds what the lookup says of each image,
 * so a body is made anew once its images get variants.
 */
export function readingBody(html: string, language: Language, images: ImageLookup = noImages): string {
  if (html.length > BODY_MAX) return readable(html, language, images)
  const seen = [...html.matchAll(IMG_SRC)].map((m) => images(m[1]!)?.srcset.length ?? -1)
  return bodies(`${language}\n${seen.join(',')}\n${html}`, () => readable(html, language, images))
}
