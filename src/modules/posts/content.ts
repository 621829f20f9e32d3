import { ValidationFailed } from '../../shared/errors.ts'
import { sanitizeContentHtml } from '../../shared/sanitize.ts'
import { withIdsAndText } from '../seo/index.ts'
import { markdownToHtml } from './markdown.ts'

const BODY_FIELDS = ['contentHtml', 'contentMarkdown'] as const

/**
 * The body a save or check sent, as HTML: `contentHtml` as it is, or `contentMarkdown` converted.
 * Exactly one of them; both or neither is a 400 naming both fields.
 */
export function bodyHtmlOf(req: { contentHtml?: string; contentMarkdown?: string }): string {
  const sent = BODY_FIELDS.filter((field) => req[field] !== undefined)
  if (sent.length !== 1) {
    const message = sent.length ? 'send only one of contentHtml and contentMarkdown' : 'send contentHtml or contentMarkdown'
    throw new ValidationFailed(BODY_FIELDS.map((field) => ({ field, message })))
  }
  return req.contentMarkdown !== undefined ? markdownToHtml(req.contentMarkdown) : req.contentHtml!
}

/**
 * The stored form of a body: sanitized, with the TOC's anchor ids written onto its headings, so
 * every response and artifact serves the same safe HTML whose TOC links work.
 */
export function prepareContent(html: string): { contentHtml: string; contentText: string } {
  const { contentHtml, contentText } = preparedBody(html)
  return { contentHtml, contentText }
}

/** prepareContent with the stored body's media URLs, from the same analysis. */
export const preparedBody = (html: string) => withIdsAndText(sanitizeContentHtml(html))
