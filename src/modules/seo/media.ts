import { analyseBody } from './html/document.ts'
import type { SeoInput } from './types.ts'
import { mediaFault, mediaKey, resolveMediaUrl, type MediaSite } from '../../shared/url-rule.ts'

/** §4 "usable media URL": every clause of the shared rule, and present in the media store. */
export function isUsableMediaUrl(raw: string, site: MediaSite & { mediaKeys: ReadonlySet<string> }): boolean {
  if (mediaFault(raw, site.siteUrl) !== null) return false
  const key = mediaKey(resolveMediaUrl(raw, site.siteUrl)!, site.mediaUrl)
  return key === null || site.mediaKeys.has(key)
}

/** The cover, OG image and body media URLs, as broken_media_url judges them; `field` is where each sits. */
export function mediaReferences(input: SeoInput, bodyMediaUrls: readonly string[]): { url: string; field: string }[] {
  const refs: { url: string; field: string }[] = []
  if (input.coverImage?.trim()) refs.push({ url: input.coverImage, field: 'coverImage' })
  if (input.ogImage?.trim()) refs.push({ url: input.ogImage, field: 'ogImage' })
  for (const url of bodyMediaUrls) refs.push({ url, field: 'contentHtml' })
  return refs
}

/**
 * Keys under MEDIA_URL that broken_media_url will look up, so the caller can prefetch them from a
 * remote store. Root-relative URLs are resolved against MEDIA_URL's origin: when the site and the
 * media share a host that is exactly the check's resolution, otherwise it only adds a harmless extra key.
 * `mediaUrls`: the body's, when the caller has analysed it already.
 */
export function mediaKeysOf(
  input: SeoInput,
  mediaUrl: string,
  mediaUrls = analyseBody(typeof input.contentHtml === 'string' ? input.contentHtml : '').mediaUrls,
): string[] {
  const keys = new Set<string>()
  for (const { url } of mediaReferences(input, mediaUrls)) {
    const resolved = resolveMediaUrl(url, mediaUrl)
    const key = resolved && mediaKey(resolved, mediaUrl)
    if (key) keys.add(key)
  }
  return [...keys]
}
