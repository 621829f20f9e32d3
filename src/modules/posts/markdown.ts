import MarkdownIt from 'markdown-it'
import footnote from 'markdown-it-footnote'

/**
 * CommonMark with GFM tables and strikethrough (markdown-it's default preset), bare-URL links and
 * footnotes. Raw HTML is let through here because the result goes through the same sanitizer as
 * any `contentHtml` (content.ts); converting is all this does.
 */
const markdown = new MarkdownIt({ html: true, linkify: true, typographer: false }).use(footnote)

export const markdownToHtml = (source: string): string => markdown.render(source)
