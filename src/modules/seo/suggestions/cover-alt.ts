import type { Language } from '../../../shared/language.ts'
import { COVER_ALT_LIMITS } from '../rules/cover-alt.ts'
import { collapseWhitespace } from '../text/units.ts'
import { cutToFit } from './cut.ts'

/** The `cover_alt` auto-fix (§5): the title, cut at a word boundary to the alt limit. */
export const generatedCoverAlt = (title: string, language: Language): string =>
  cutToFit(collapseWhitespace(title), COVER_ALT_LIMITS[language].maxLength, language)
