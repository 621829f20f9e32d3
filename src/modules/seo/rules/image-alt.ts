import type { BodyImage } from '../html/document.ts'
import { defineRule, fail, notApplicable, pass } from '../rule.ts'
import { isUsableAlt } from '../text/alt.ts'
import { COVER_ALT_LIMITS } from './cover-alt.ts'

/** An empty alt is right for a decorative image that is also hidden from assistive technology. */
const isDecorative = ({ alt, role, ariaHidden }: BodyImage): boolean =>
  alt === '' && (role === 'presentation' || role === 'none' || ariaHidden === 'true')

export const imageAlt = defineRule({
  code: 'image_alt',
  step: 'content',
  targetField: 'contentHtml',
  weight: 4,
  blocking: false,
  thresholds: COVER_ALT_LIMITS,
  why: 'Accessibility and image search.',
  fixAction: 'Add alt text.',
  autoFixType: null,
  judge({ body }, { maxLength }) {
    const n = body.images.length
    if (n === 0) return notApplicable('no images in the body.')
    const lacking = body.images.filter((image) => !isDecorative(image) && !isUsableAlt(image.alt, maxLength)).length
    if (lacking === 0) return pass(`All ${n} images have usable alt text.`)
    return fail(`${lacking} of ${n} images lack usable alt text.`)
  },
})
