import { analyseBody } from './html/document.ts'
import { withHeadingIds } from './heading-ids.ts'

/** The post's `contentText`: the §2 body text the rules measure, one block a line. Plain text, entities decoded. */
export const contentText = (html: string): string => analyseBody(html).text

/**
 * A body with its TOC ids written on, its `contentText` and its media URLs, from one analysis:
 * writing ids changes only h2/h3 start tags, never the text or a media URL.
 */
export function withIdsAndText(html: string): { contentHtml: string; contentText: string; mediaUrls: string[] } {
  const body = analyseBody(html)
  return { contentHtml: withHeadingIds(html, body), contentText: body.text, mediaUrls: body.mediaUrls }
}
