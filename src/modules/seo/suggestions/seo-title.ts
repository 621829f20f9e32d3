import type { Language } from '../../../shared/language.ts'
import { SEO_TITLE_WIDTH } from '../rules/seo-title-length.ts'
import { collapseWhitespace, isBlank, width } from '../text/units.ts'
import { byWidth, cutToFit } from './cut.ts'

export interface CategoryNames {
  nameEn: string
  nameZh: string
}

/** Open Graph titles run longer than search titles: Facebook shows about 95 Latin or 45 CJK characters. */
const OG_TITLE_MAX = { en: 95, zh: 45 }

/** §5 generatedSeoTitle: the title cut to width 60, or a short title branded with its category. */
export function generatedSeoTitle(title: string, language: Language, category: CategoryNames | undefined): string {
  const text = collapseWhitespace(title)
  const { min, max } = SEO_TITLE_WIDTH[language]
  const w = width(text)
  if (w > max) return cutToFit(text, max, language, byWidth)
  const name = language === 'en' ? category?.nameEn : category?.nameZh
  if (w < min && name !== undefined && !isBlank(name)) {
    const branded = language === 'en' ? `${text} | ${name.trim()}` : `${text}｜${name.trim()}`
    if (width(branded) <= max) return branded
  }
  return text
}

/** §5 generatedOgTitle: the title cut like the SEO title, by characters, without a suffix. */
export const generatedOgTitle = (title: string, language: Language): string =>
  cutToFit(collapseWhitespace(title), OG_TITLE_MAX[language], language)
