/**
 * A WordPress post body as HTML Folio's sanitizer can take: paragraphs of the classic editor
 * (`wpautop`), the block editor's comments dropped, and shortcodes converted (`[caption]`,
 * `[gallery]`, `[embed]`, `[video]`, `[audio]`, `[youtube]`) or removed with a note, never left as
 * raw text. Every pass is one left-to-right scan with bounded look-ahead, so linear in the body.
 */

export type AttachmentUrls = (id: string) => string | undefined

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
const BLOCK = /^<(p|div|h[1-6]|ul|ol|li|blockquote|pre|table|figure|hr|section|article|iframe|dl|form|address|!--)[\s>/]/i

/** The classic editor stores paragraphs as blank lines: wrap them, as WordPress's `wpautop` does when it renders. */
function autop(html: string): string {
  if (/<\/p>/i.test(html)) return html
  return html
    .split(/\r?\n[ \t]*\r?\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => (BLOCK.test(part) ? part : `<p>${part.replace(/\r?\n/g, '<br>\n')}</p>`))
    .join('\n')
}

const YOUTUBE = /^https?:\/\/(?:www\.)?(?:youtube\.com\/watch\?(?:[^#]*&)?v=|youtu\.be\/)([\w-]{6,20})/
const VIMEO = /^https?:\/\/(?:www\.)?vimeo\.com\/(\d{1,15})/

/** An embed URL as a player Folio's sanitizer keeps (YouTube, Vimeo), else a plain link. */
export function embedHtml(url: string): string {
  const clean = url.trim()
  const yt = YOUTUBE.exec(clean)
  if (yt)
    return `<iframe src="https://www.youtube-nocookie.com/embed/${yt[1]}" width="560" height="315" allowfullscreen loading="lazy"></iframe>`
  const vimeo = VIMEO.exec(clean)
  if (vimeo)
    return `<iframe src="https://player.vimeo.com/video/${vimeo[1]}" width="560" height="315" allowfullscreen loading="lazy"></iframe>`
  return /^https?:\/\//.test(clean) ? `<p><a href="${escapeAttr(clean)}">${escapeAttr(clean)}</a></p>` : ''
}

export function attrsOf(text: string): Record<string, string> {
  const attrs: Record<string, string> = {}
  for (const m of text.matchAll(/([\w-]{1,40})\s*=\s*(?:"([^"]{0,2000})"|'([^']{0,2000})'|([^\s"']{1,2000}))/g))
    attrs[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? ''
  return attrs
}

/** Shortcodes of popular plugins whose output cannot be carried (forms, page builders): removed with a note. */
const PLUGIN_PREFIXES = [
  'contact-form',
  'gravityform',
  'wpforms',
  'mc4wp',
  'vc_',
  'et_pb_',
  'fusion_',
  'su_',
  'ninja_form',
  'playlist',
  'wp_',
  'rev_slider',
]

type Converter = (attrs: Record<string, string>, inner: string, urls: AttachmentUrls) => string

const CONVERTERS: Record<string, Converter> = {
  caption: (attrs, inner) => {
    const split = /^(\s*(?:<a\b[^>]{0,2000}>\s*)?<img\b[^>]{0,4000}>(?:\s*<\/a>)?)([\s\S]*)$/i.exec(inner)
    const caption = (split ? split[2]! : '').trim() || attrs.caption || ''
    return `<figure>${split ? split[1]!.trim() : inner}${caption ? `<figcaption>${caption}</figcaption>` : ''}</figure>`
  },
  gallery: (attrs, _inner, urls) => {
    const images = (attrs.ids ?? '')
      .split(',')
      .slice(0, 200)
      .map((id) => urls(id.trim()))
      .filter((url): url is string => !!url)
      .map((url) => `<img src="${escapeAttr(url)}" alt="">`)
    return images.length ? `<figure class="gallery">${images.join('')}</figure>` : ''
  },
  embed: (attrs, inner) => embedHtml(inner || attrs.src || attrs.url || ''),
  youtube: (attrs, inner) => embedHtml(inner || attrs.url || Object.keys(attrs)[0] || ''),
  video: (attrs, inner) => embedHtml(attrs.src || attrs.mp4 || attrs.url || inner),
  audio: (attrs, inner) => embedHtml(attrs.src || attrs.mp3 || inner),
  code: (_attrs, inner) => `<pre><code>${inner.replace(/</g, '&lt;')}</code></pre>`,
}
CONVERTERS.wp_caption = CONVERTERS.caption!
CONVERTERS.sourcecode = CONVERTERS.code!
CONVERTERS.source = CONVERTERS.code!

const SHORTCODE = /\[(\/?)([a-zA-Z][\w-]{0,40})((?:\s[^[\]]{0,2000})?)(\/?)\]/g
const BLOCK_COMMENT = /<!--\s{0,10}\/?wp:[^>]{0,4000}?-->/g
const MAX_CLOSE_DISTANCE = 200_000

/** Converts a WordPress body; `notes` receives what could not be carried. */
export function wordpressBody(raw: string, urls: AttachmentUrls, notes: string[]): string {
  const html = autop(raw.replace(BLOCK_COMMENT, ''))
  let out = ''
  let at = 0
  SHORTCODE.lastIndex = 0
  for (let m = SHORTCODE.exec(html); m; m = SHORTCODE.exec(html)) {
    const [whole, closing, rawName, attrText, selfClosing] = m
    const name = rawName!.toLowerCase()
    const converter = CONVERTERS[name]
    const plugin = PLUGIN_PREFIXES.some((p) => name.startsWith(p))
    // The end of an enclosing shortcode, searched for within a bounded distance (linear overall).
    const closeAt = closing || selfClosing ? -1 : html.indexOf(`[/${rawName}]`, m.index + whole.length)
    const encloses = closeAt !== -1 && closeAt - m.index < MAX_CLOSE_DISTANCE
    if (!converter && !plugin && !closing && !encloses && !/=/.test(attrText ?? '')) continue // `[sic]`: text, not a shortcode
    out += html.slice(at, m.index)
    const inner = encloses ? html.slice(m.index + whole.length, closeAt) : ''
    at = encloses ? closeAt + rawName!.length + 3 : m.index + whole.length
    SHORTCODE.lastIndex = at
    if (closing) continue // a stray closing tag
    if (converter) out += converter(attrsOf(attrText ?? ''), inner.trim(), urls)
    else {
      notes.push(`shortcode [${name}] removed`)
      // An unknown enclosing shortcode keeps its content: it is the author's text.
      out += plugin ? '' : inner
    }
  }
  return out + html.slice(at)
}
