import TurndownService from 'turndown'

/**
 * Stored text on its way into Markdown (the site's twins, llms.txt): inert for every renderer,
 * including those that pass HTML through (markdown-it with `html: true`, most of them). `&`, `<`
 * and `>` become entities, which CommonMark turns back into those characters as text, never into a
 * tag; then Markdown's own punctuation is escaped (turndown's escapes: `*`, `_`, `[`, a leading
 * `#` or `-`…), which leaves the entities alone. docs/security.md, "Markdown and llms.txt".
 */
const punctuation = new TurndownService()

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }

/** Text (a body's text node, a field) as Markdown that shows exactly these characters. */
export const markdownEscape = (value: string): string => punctuation.escape(value.replace(/[&<>]/g, (c) => ENTITIES[c]!))

/** A one-line field (title, summary, FAQ entry): whitespace runs, newlines included, become one space. */
export const markdownLine = (value: string): string => markdownEscape(value.replace(/\s+/g, ' ').trim())
