import { both, defineRule, fail, inRange, pass } from '../rule.ts'
import { isBlank, width } from '../text/units.ts'

/** Width 30–60 in both languages: CJK counts 2, so zh lands at about 15–30 characters. */
export const SEO_TITLE_WIDTH = both({ min: 30, max: 60 })

export const seoTitleLength = defineRule({
  code: 'seo_title_length',
  step: 'seo',
  targetField: 'seoTitle',
  weight: 5,
  blocking: false,
  thresholds: SEO_TITLE_WIDTH,
  why: 'Title links are cut to device width.',
  fixAction: 'Use the suggestion.',
  autoFixType: 'seo_title',
  judge({ post }, range) {
    const w = width(isBlank(post.seoTitle) ? post.title : post.seoTitle)
    if (inRange(w, range)) return pass(`Search title width ${w}.`)
    return fail(`Search title width ${w}; aim for ${range.min}–${range.max} (CJK counts 2).`)
  },
})
