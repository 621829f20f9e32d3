import { isUsableMediaUrl, mediaReferences } from '../media.ts'
import { defineRule, fail, NO_LIMITS, notApplicable, pass } from '../rule.ts'

export const brokenMediaUrl = defineRule({
  code: 'broken_media_url',
  step: 'content',
  targetField: 'contentHtml',
  weight: 3,
  blocking: true,
  thresholds: NO_LIMITS,
  why: 'Broken media publish as holes.',
  fixAction: 'Re-upload; use the returned URL.',
  autoFixType: null,
  judge({ post, body, world }) {
    // An <img>/<source> the sanitizer left without a URL was sent with an unusable one
    // (`javascript:`, `file:`, `data:`…): judged as the author sent it, it blocks (seo-rules.md §4).
    if (body.mediaWithoutUrl > 0)
      return fail(
        `${body.mediaWithoutUrl} image or source element(s) have no usable URL (javascript:, file:, data: and blob: are removed).`,
      )
    const refs = mediaReferences(post, body.mediaUrls)
    if (refs.length === 0) return notApplicable('no media URLs.')
    const broken = refs.filter((ref) => !isUsableMediaUrl(ref.url, world))
    const [first] = broken
    if (!first) return pass(`All ${refs.length} media URL(s) can be served.`)
    return fail(`${broken.length} media URL(s) cannot be served: ${first.url.trim()}.`, first.field)
  },
})
