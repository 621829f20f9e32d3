import { Parser } from 'htmlparser2'
import sanitizeHtml from 'sanitize-html'
import { invalidField } from './errors.ts'
import { IFRAME_HOSTS } from './iframe-hosts.ts'
import { isSafeId } from './safe-id.ts'

const MEDIA_SCHEMES = ['http', 'https', 'data', 'blob']

/**
 * The allow-list every stored `contentHtml` passes through (sanitize-html, not hand-written
 * regexes): the semantic tags of spec §2.2, no scripts, styles, event handlers or `javascript:`
 * URLs. Media keep unusual schemes (blob:, data:) on purpose so the SEO gate can name them as
 * broken media instead of the sanitizer silently leaving a hole. No `name` attributes and only
 * safe, non-clobbering ids (DOM clobbering); no iframe `allow` (an embed gets no camera, clipboard
 * or payment permissions from the page).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'h1',
    'img',
    'figure',
    'figcaption',
    'picture',
    'source',
    'video',
    'audio',
    'track',
    'iframe',
    'details',
    'summary',
    'mark',
    'del',
    'ins',
  ],
  allowedAttributes: {
    '*': ['id', 'class', 'lang', 'dir', 'title', 'role', 'aria-label', 'aria-hidden', 'aria-describedby'],
    a: ['href', 'target', 'rel', 'hreflang'],
    img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding'],
    source: ['src', 'srcset', 'sizes', 'type', 'media'],
    video: ['src', 'poster', 'controls', 'width', 'height', 'preload', 'muted', 'loop', 'playsinline'],
    audio: ['src', 'controls', 'preload', 'loop', 'muted'],
    track: ['src', 'kind', 'srclang', 'label', 'default'],
    // No `referrerpolicy`: a stored `unsafe-url` would send the page's whole URL (a preview's
    // token) to the embed's host. Nothing stored may loosen the page's own policy.
    iframe: ['src', 'width', 'height', 'allowfullscreen', 'loading'],
    ol: ['start', 'reversed', 'type'],
    td: ['colspan', 'rowspan', 'headers'],
    th: ['colspan', 'rowspan', 'headers', 'scope'],
    code: ['class'],
    time: ['datetime'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: MEDIA_SCHEMES, source: MEDIA_SCHEMES, video: MEDIA_SCHEMES, audio: MEDIA_SCHEMES },
  allowProtocolRelative: true,
  allowedIframeHostnames: IFRAME_HOSTS,
  transformTags: {
    // Links that open a new tab must not hand the opener to the target page.
    a: (tagName, attribs) =>
      attribs.target === '_blank' ? { tagName, attribs: { ...attribs, rel: mergeRel(attribs.rel, 'noopener') } } : { tagName, attribs },
    // Values arrive decoded: `&quot;&gt;` is already `">` here, so an encoded payload is judged as what it is.
    '*': (tagName, attribs) => {
      if (attribs.id === undefined || isSafeId(attribs.id)) return { tagName, attribs }
      const { id: _dropped, ...rest } = attribs
      return { tagName, attribs: rest }
    },
  },
}

function mergeRel(rel: string | undefined, add: string): string {
  const tokens = new Set((rel ?? '').split(/\s+/).filter(Boolean))
  tokens.add(add)
  return [...tokens].join(' ')
}

/** Deeper than any real article; sanitize-html's cost grows faster than linearly with depth (100,000 took 5 s). */
export const MAX_NESTING = 256
/**
 * More elements than any real article holds (a 30,000-word post with tables has a few thousand).
 * Every pass is linear, but a body of 125,000 empty paragraphs still cost over a second of
 * sanitizing and checking on the request loop; this bound keeps one call well under that.
 */
export const MAX_ELEMENTS = 25_000

type Shape = 'ok' | 'too deep' | 'too many'
const STOP = new Error('shape bound reached')

/**
 * Whether `html` nests elements deeper than `maxDepth`, or holds more than `maxElements`, as
 * sanitize-html's parser sees it. One tokenizer pass that stops at the first element past either
 * bound, so the parser's own stack never grows beyond it (htmlparser2 keeps open elements with
 * `unshift`, quadratic on deep input).
 */
export function htmlShape(html: string, maxDepth: number, maxElements: number): Shape {
  let depth = 0
  let elements = 0
  let shape: Shape = 'ok'
  const parser = new Parser({
    onopentag() {
      if (++depth > maxDepth) shape = 'too deep'
      else if (++elements > maxElements) shape = 'too many'
      if (shape !== 'ok') throw STOP
    },
    onclosetag() {
      depth -= 1
    },
  })
  try {
    parser.end(html)
  } catch (error) {
    if (error !== STOP) throw error
  }
  return shape
}

/** The stored form of `contentHtml`; a body nested deeper than MAX_NESTING, or with more than MAX_ELEMENTS elements, is refused naming the field. */
export function sanitizeContentHtml(html: string): string {
  const shape = htmlShape(html, MAX_NESTING, MAX_ELEMENTS)
  if (shape === 'too deep') throw invalidField('contentHtml', `elements nested deeper than ${MAX_NESTING} levels`)
  if (shape === 'too many') throw invalidField('contentHtml', `more than ${MAX_ELEMENTS} elements`)
  return sanitizeHtml(html, OPTIONS)
}
