import { LANGUAGE_PATH, otherLanguage, type Language } from '../../../shared/language.ts'
import { defineRule, fail, NO_LIMITS, notApplicable, pass } from '../rule.ts'
import { parseUrl } from '../../../shared/url-rule.ts'
import { hostKey } from '../text/urls.ts'

/** Why a canonical URL is wrong for this post (§4 canonical reasons), or null when it is fine. */
function canonicalFault(canonical: string, siteUrl: string, language: Language): string | null {
  const url = /^https?:\/\//i.test(canonical) ? parseUrl(canonical) : null
  if (!url) return 'is not an absolute http(s) URL'
  if (canonical.includes('#')) return 'contains a fragment'
  if (url.pathname === '/') return 'points to the site root'
  const site = parseUrl(siteUrl)
  if (!site || hostKey(url.host) !== hostKey(site.host)) return null
  if (url.protocol !== site.protocol) return 'uses another scheme than the site'
  const otherPrefix = site.pathname.replace(/\/+$/, '') + LANGUAGE_PATH[otherLanguage(language)]
  if (url.pathname === otherPrefix || url.pathname.startsWith(`${otherPrefix}/`)) return 'points to the other language'
  return null
}

export const canonicalValid = defineRule({
  code: 'canonical_valid',
  step: 'seo',
  targetField: 'canonicalUrl',
  weight: 3,
  blocking: true,
  thresholds: NO_LIMITS,
  why: 'A wrong canonical de-indexes the post.',
  fixAction: 'Clear it (self).',
  autoFixType: 'canonical_self',
  judge({ post, world, language, selfUrl }) {
    const canonical = post.canonicalUrl.trim()
    if (canonical === '') return notApplicable(`blank, so the post is its own canonical (${selfUrl}).`)
    const fault = canonicalFault(canonical, world.siteUrl, language)
    if (fault) return fail(`Canonical URL ${fault}.`)
    return pass(`Consolidates to ${canonical}.`)
  },
})
