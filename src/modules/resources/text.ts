import type sanitizeHtml from 'sanitize-html'

/** sanitize-html, loaded at the first import of resources: the render threads show resources' summaries and never need it. */
const sanitize = (): typeof sanitizeHtml => require('sanitize-html') as typeof sanitizeHtml

/** Tags that end a line of text: dropping them must leave a space, or "<p>a</p><p>b</p>" reads "ab". */
const BLOCK_TAGS = ['address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer']
  .concat(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section'])
  .concat(['table', 'td', 'th', 'tr', 'ul'])

const BLOCKS_ONLY: sanitizeHtml.IOptions = {
  allowedTags: BLOCK_TAGS,
  allowedAttributes: {},
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template'],
}

/**
 * The text a reader sees in rich-text HTML: tags stripped, entities decoded, whitespace
 * collapsed. sanitize-html parses (no hand-written tag regex on raw input) and keeps only bare
 * block tags with every `<` of text escaped, so on its output a tag is exactly `<...>`; the
 * only entities it writes are the four it escapes, decoded here with `&amp;` last.
 */
export function plainText(html: string): string {
  return sanitize()(html, BLOCKS_ONLY)
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
}

export const SUMMARY_LENGTH = 200

/**
 * A picker summary: the text cut to at most `max` characters, at the last space when one falls
 * in the final third (Chinese has no spaces, so it is cut at a character), with an ellipsis.
 */
export function summarize(text: string, max = SUMMARY_LENGTH): string {
  const chars = [...text]
  if (chars.length <= max) return text
  const head = chars.slice(0, max - 1).join('')
  const space = head.lastIndexOf(' ')
  const cut = space >= (head.length * 2) / 3 ? head.slice(0, space) : head
  return `${cut.replace(/[\s,.;:!?，。；：！？、-]+$/u, '')}…`
}
