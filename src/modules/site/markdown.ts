import TurndownService from 'turndown'
import type { PostRes } from '../posts/model.ts'
import { completeFaq, postUrl } from './head.ts'
import type { Language } from '../../shared/language.ts'
import { WORDS } from './templates/words.ts'

/**
 * The Markdown twin of a post page (`/en/blog/{slug}.md`), for answer engines and readers who
 * want the text alone: the same title, answer summary, takeaways, body and FAQ the page shows.
 * The body is the sanitized `contentHtml`, converted by turndown.
 */
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' })

/** Markdown-inert text: the characters that would start markup are escaped. */
const text = (value: string) => turndown.escape(value.replace(/\s+/g, ' ').trim())

export function renderMarkdownTwin(siteUrl: string, post: PostRes): string {
  const language = post.language as Language
  const w = WORDS[language]
  const parts = [`# ${text(post.title)}`, `<${postUrl(siteUrl, language, post.slug)}>`]
  if (post.summary) parts.push(`> ${text(post.summary)}`)
  if (post.answerSummary) parts.push(`## ${w.answer}`, text(post.answerSummary))
  if (post.keyTakeaways.length) parts.push(`## ${w.takeaways}`, post.keyTakeaways.map((k) => `- ${text(k)}`).join('\n'))
  parts.push(turndown.turndown(post.contentHtml))
  const faq = completeFaq(post)
  if (faq.length) parts.push(`## ${w.faq}`, ...faq.map((f) => `### ${text(f.question)}\n\n${text(f.answer)}`))
  return `${parts.join('\n\n')}\n`
}
