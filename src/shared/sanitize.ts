import sanitizeHtml from 'sanitize-html'

const MEDIA_SCHEMES = ['http', 'https', 'data', 'blob']

/**
 * The allow-list every stored `contentHtml` passes through (sanitize-html, not hand-written
 * regexes): the semantic tags of spec §2.2, no scripts, styles, event handlers or `javascript:`
 * URLs. Media keep unusual schemes (blob:, data:) on purpose so the SEO gate can name them as
 * broken media instead of the sanitizer silently leaving a hole.
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
    a: ['href', 'name', 'target', 'rel', 'hreflang'],
    img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding'],
    source: ['src', 'srcset', 'sizes', 'type', 'media'],
    video: ['src', 'poster', 'controls', 'width', 'height', 'preload', 'muted', 'loop', 'playsinline'],
    audio: ['src', 'controls', 'preload', 'loop', 'muted'],
    track: ['src', 'kind', 'srclang', 'label', 'default'],
    iframe: ['src', 'width', 'height', 'allow', 'allowfullscreen', 'loading', 'referrerpolicy'],
    ol: ['start', 'reversed', 'type'],
    td: ['colspan', 'rowspan', 'headers'],
    th: ['colspan', 'rowspan', 'headers', 'scope'],
    code: ['class'],
    time: ['datetime'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: MEDIA_SCHEMES, source: MEDIA_SCHEMES, video: MEDIA_SCHEMES, audio: MEDIA_SCHEMES },
  allowProtocolRelative: true,
  allowedIframeHostnames: ['www.youtube.com', 'www.youtube-nocookie.com', 'player.vimeo.com'],
  transformTags: {
    // Links that open a new tab must not hand the opener to the target page.
    a: (tagName, attribs) =>
      attribs.target === '_blank' ? { tagName, attribs: { ...attribs, rel: mergeRel(attribs.rel, 'noopener') } } : { tagName, attribs },
  },
}

function mergeRel(rel: string | undefined, add: string): string {
  const tokens = new Set((rel ?? '').split(/\s+/).filter(Boolean))
  tokens.add(add)
  return [...tokens].join(' ')
}

export const sanitizeContentHtml = (html: string): string => sanitizeHtml(html, OPTIONS)
