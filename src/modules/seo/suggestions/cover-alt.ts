import type { Language } from '../../../shared/language.ts'
import { walkHtml } from '../html/parse.ts'
import { COVER_ALT_LIMITS } from '../rules/cover-alt.ts'
import { isUsableAlt } from '../text/alt.ts'
import { collapseWhitespace } from '../text/units.ts'
import { cutToFit } from './cut.ts'

/**
 * What the body says about the cover, where it shows the cover image too: the caption of the
 * figure holding it, else that image's own alt. One linear walk; caption text is kept only while
 * inside a figure that holds the cover.
 */
export function coverTextInBody(html: string, coverImage: string): { caption: string; alt: string } {
  const cover = coverImage.trim()
  const found = { caption: '', alt: '' }
  if (!cover) return found
  let figureDepth = 0
  let figureHasCover = false
  let inCaption = false
  let caption: string[] = []
  walkHtml(html, {
    open(element) {
      if (element.name === 'figure' && ++figureDepth === 1) {
        figureHasCover = false
        caption = []
      }
      if (element.name === 'figcaption' && figureDepth > 0) inCaption = true
      if (element.name === 'img' && element.attrs.src?.trim() === cover) {
        if (!found.alt && element.attrs.alt) found.alt = collapseWhitespace(element.attrs.alt)
        if (figureDepth > 0) figureHasCover = true
      }
    },
    close(element) {
      if (element.name === 'figcaption') inCaption = false
      if (element.name === 'figure' && figureDepth > 0 && --figureDepth === 0 && figureHasCover && !found.caption)
        found.caption = collapseWhitespace(caption.join(''))
    },
    text(text) {
      if (inCaption && figureDepth > 0) caption.push(text)
    },
  })
  return found
}

/**
 * The `cover_alt` auto-fix (§5): the body's caption of the cover or the cover image's own alt
 * when usable, else the title; cut at a word boundary to the alt limit.
 */
export function generatedCoverAlt(title: string, language: Language, body?: { contentHtml: string; coverImage: string }): string {
  const { maxLength } = COVER_ALT_LIMITS[language]
  const found = body ? coverTextInBody(body.contentHtml, body.coverImage) : { caption: '', alt: '' }
  const best = [found.caption, found.alt].find((text) => text && isUsableAlt(text, Number.MAX_SAFE_INTEGER)) ?? title
  return cutToFit(collapseWhitespace(best), maxLength, language)
}
