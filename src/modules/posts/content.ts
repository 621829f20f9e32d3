import { sanitizeContentHtml } from '../../shared/sanitize.ts'
import { withIdsAndText } from '../seo/index.ts'

/**
 * The stored form of a body: sanitized, with the TOC's anchor ids written onto its headings, so
 * every response and artifact serves the same safe HTML whose TOC links work.
 */
export function prepareContent(html: string): { contentHtml: string; contentText: string } {
  return withIdsAndText(sanitizeContentHtml(html))
}
