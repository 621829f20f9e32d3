import TurndownService from 'turndown'
import type { PostRes } from '../posts/model.ts'
import { completeFaq } from './head.ts'
import { type Language, postUrl } from '../../shared/language.ts'
import { recentMemo } from '../../shared/memo.ts'
import { WORDS } from './templates/words.ts'
import { markdownEscape, markdownLine } from '../../shared/markdown-text.ts'

/**
 * The Markdown twin of a post page (`/en/blog/{slug}.md`), for answer engines and readers who
 * want the text alone: the same title, answer summary, takeaways, body and FAQ the page shows.
 * The body is the sanitized `contentHtml`, converted by turndown.
 */
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' })
// Every text node of the body is escaped as stored text is: `&lt;img onerror…&gt;` stays text.
turndown.escape = markdownEscape

/**
 * A post's twin is rendered again whenever its page is, most often with the same body (a newer
 * post joined its related posts, a clap): the bodies converted last are kept, those of ordinary
 * size only, so the memo holds about BODIES x 2 x BODY_MAX characters at most.
 */
const BODIES = 64
const BODY_MAX = 65_536
const bodies = recentMemo<string, string>(BODIES)
const body = (html: string) => (html.length > BODY_MAX ? turndown.turndown(html) : bodies(html, () => turndown.turndown(html)))
/** The same conversion for `export --format markdown` (export/markdown-folder.ts). */
export const htmlToMarkdown = (html: string): string => turndown.turndown(html)

export function renderMarkdownTwin(siteUrl: string, post: PostRes): string {
  const language = post.language as Language
  const w = WORDS[language]
  const parts = [`# ${markdownLine(post.title)}`, `<${postUrl(siteUrl, language, post.slug)}>`]
  if (post.summary) parts.push(`> ${markdownLine(post.summary)}`)
  if (post.answerSummary) parts.push(`## ${w.answer}`, markdownLine(post.answerSummary))
  if (post.keyTakeaways.length) parts.push(`## ${w.takeaways}`, post.keyTakeaways.map((k) => `- ${markdownLine(k)}`).join('\n'))
  parts.push(body(post.contentHtml))
  const faq = completeFaq(post)
  if (faq.length) parts.push(`## ${w.faq}`, ...faq.map((f) => `### ${markdownLine(f.question)}\n\n${markdownLine(f.answer)}`))
  return `${parts.join('\n\n')}\n`
}
