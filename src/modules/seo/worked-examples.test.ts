import { describe, expect, test } from 'bun:test'
import { check, failedBlockingCodes } from './engine.ts'
import type { SeoCheckResult, SeoInput } from './types.ts'
import * as X from './worked-examples.ts'

const run = (input: SeoInput): SeoCheckResult => check(input, X.WORLD, X.NOW)
const failing = (result: SeoCheckResult) => result.items.filter((item) => !item.passed).map((item) => item.code)
const item = (result: SeoCheckResult, code: string) => {
  const found = result.items.find((candidate) => candidate.code === code)
  if (!found) throw new Error(`no item ${code}`)
  return found
}
const tocOf = (result: SeoCheckResult) => result.toc.map(({ id, level }) => [id, level])

const EN_TOC = [
  ['what-is-a-static-site-generator', 2],
  ['how-do-you-compare-build-speed', 2],
  ['which-tools-did-we-test', 3],
  ['sources', 2],
]
const ZH_TOC = [
  ['什么是静态网站生成器', 2],
  ['如何比较构建速度', 2],
  ['我们测试了哪些工具', 3],
  ['参考资料', 2],
]

describe('§6 blocks', () => {
  test('F, Z, S(n), H(n) measure as the catalogue says', async () => {
    const { fieldLength, units } = await import('./text/units.ts')
    const { syllables } = await import('./text/flesch.ts')
    const { wordRuns } = await import('./text/units.ts')
    expect([fieldLength(X.F), units(X.F), wordRuns(X.F).reduce((n, w) => n + syllables(w), 0)]).toEqual([48, 10, 10])
    expect([fieldLength(X.Z), units(X.Z)]).toEqual([17, 15])
    for (const n of [75, 90, 140, 150]) expect(fieldLength(X.S(n))).toBe(n)
    for (const n of [70, 80, 100]) expect([fieldLength(X.H(n)), X.H(n).endsWith('。')]).toEqual([n, true])
    expect(/\p{Script=Han}/u.test(X.S(150))).toBe(false)
  })
})

describe('worked examples (§6)', () => {
  test('E0 clean en: everything passes', () => {
    const r = run(X.E0)
    expect(failing(r)).toEqual([])
    expect([r.score, r.aeoScore, r.canPublish, r.passedWeight, r.totalWeight]).toEqual([100, 100, true, 100, 100])
    expect(failedBlockingCodes(r)).toEqual([])
    expect(r.scoreSummary).toBe('Score 100/100 (good), AEO 100/100. 33 of 33 checks passed; no blocking issues.')
    expect(r.generatedSlug).toBe('how-to-choose-a-static-site-generator-in-2026')
    expect(r.generatedSeoTitle).toBe(X.E0.title)
    expect(r.generatedOgTitle).toBe(X.E0.title)
    expect(r.generatedExcerpt).toBe(X.E0.summary as string)
    expect(tocOf(r)).toEqual(EN_TOC)
    expect(item(r, 'thin_content').message).toBe('Body has 331 words.')
    expect(item(r, 'subheading_distribution').message).toBe('Longest section has 100 words.')
    expect(item(r, 'reading_ease').message).toBe('Flesch reading ease 100.0; aim for 50+.')
    expect(r.items.every((i) => i.autoFixType === null && i.severity === 'pass' && i.key === i.code)).toBe(true)
  })

  test('Z0 clean zh: everything passes', () => {
    const r = run(X.Z0)
    expect(failing(r)).toEqual([])
    expect([r.score, r.aeoScore, r.canPublish]).toEqual([100, 100, true])
    expect(item(r, 'thin_content').message).toBe('Body has 768 characters.')
    expect(item(r, 'seo_title_length').message).toBe('Search title width 35.')
    expect(item(r, 'title_length').message).toBe('Title has 20 characters.')
    expect(r.generatedSeoDescription).toBe(X.Z0.summary as string)
    expect(tocOf(r)).toEqual(ZH_TOC)
  })

  test('E1 the blocked draft', () => {
    const r = run(X.E1)
    expect(failing(r)).toEqual([
      'cover_alt',
      'thin_content',
      'content_length',
      'internal_links',
      'outbound_links',
      'question_headings',
      'citations',
      'duplicate_slug',
    ])
    expect([r.score, r.aeoScore, r.canPublish]).toEqual([74, 80, false])
    expect(r.scoreSummary).toBe(
      'Score 74/100 (needs work), AEO 80/100. 25 of 33 checks passed; 3 blocking: cover_alt, thin_content, duplicate_slug.',
    )
    expect(failedBlockingCodes(r)).toEqual(['cover_alt', 'thin_content', 'duplicate_slug'])
    for (const code of ['subheading_distribution', 'heading_order', 'image_alt']) {
      expect(item(r, code).message.startsWith('Not applicable:')).toBe(true)
    }
    expect(item(r, 'cover_alt')).toMatchObject({ severity: 'error', autoFixType: 'cover_alt', label: 'Cover alt' })
    expect(item(r, 'duplicate_slug').message).toBe('Slug "existing-post" is already used by post 100.')
    expect(item(r, 'content_length').severity).toBe('warning')
  })

  test('E2 metadata', () => {
    const r = run(X.E2)
    expect(failing(r)).toEqual(['seo_title_length', 'seo_description_length', 'noindex_warning'])
    expect([r.score, r.aeoScore, r.canPublish]).toEqual([87, 100, true])
    expect(item(r, 'seo_title_length')).toMatchObject({ autoFixType: 'seo_title', label: 'SEO title length' })
    expect(item(r, 'seo_description_length')).toMatchObject({
      autoFixType: 'seo_description',
      message: 'Search description has 90 characters; aim for 120–156.',
    })
    expect(r.generatedSeoTitle).toBe(X.E2.title)
    expect(r.generatedSeoDescription).toBe(`${X.E2.summary} ${X.F}`)
    expect(r.generatedSeoDescription.length).toBe(139)
  })

  test('E3 URLs', () => {
    const r = run(X.E3)
    expect(failing(r)).toEqual(['slug_format', 'canonical_valid', 'hreflang_pair'])
    expect([r.score, r.canPublish]).toEqual([90, false])
    expect(failedBlockingCodes(r)).toEqual(['slug_format', 'canonical_valid', 'hreflang_pair'])
    expect(item(r, 'slug_format').autoFixType).toBe('slug')
    expect(item(r, 'canonical_valid')).toMatchObject({ autoFixType: 'canonical_self', message: 'Canonical URL points to the site root.' })
    expect(r.generatedSlug).toBe('how-to-choose-a-static-site-generator-in-2026')
  })

  test('E4 structure and media', () => {
    const r = run(X.E4)
    expect(failing(r)).toEqual(['single_h1', 'heading_order', 'image_alt', 'broken_media_url'])
    expect([r.score, r.aeoScore]).toEqual([88, 100])
    expect(failedBlockingCodes(r)).toEqual(['broken_media_url'])
    expect(item(r, 'image_alt').message).toBe('1 of 2 images lack usable alt text.')
    expect(r.toc[0]?.level).toBe(3)
  })

  test('E5 AEO gaps', () => {
    const r = run(X.E5)
    expect(failing(r)).toEqual(['answer_summary', 'key_takeaways', 'faq_present', 'faq_complete', 'author_present', 'reviewed_recent'])
    expect([r.score, r.aeoScore, r.canPublish]).toEqual([84, 20, true])
    expect(item(r, 'author_present').message).toBe('No enabled author profile linked (byline text only).')
  })

  test('Z1 language mismatch', () => {
    const r = run(X.Z1)
    expect(failing(r)).toEqual(['language_match', 'thin_content', 'content_length'])
    expect([r.score, r.aeoScore]).toEqual([86, 100])
    expect(failedBlockingCodes(r)).toEqual(['language_match', 'thin_content'])
    expect(item(r, 'language_match').message).toBe('Post is marked zh but 4% of its text is Chinese.')
  })

  test('Z2 zh lengths', () => {
    const r = run(X.Z2)
    expect(failing(r)).toEqual(['title_length', 'cover_alt', 'seo_title_length', 'seo_description_length'])
    expect(r.score).toBe(83)
    expect(failedBlockingCodes(r)).toEqual(['cover_alt'])
    expect(r.generatedSeoTitle).toBe(X.times('静态网站生成器怎么选', 3, ''))
    expect(r.generatedSeoDescription).toBe(X.Z2.summary as string)
    expect(r.generatedSlug).toBe('jing-tai-wang-zhan-sheng-cheng-qi-zen-me-xuan-jing-tai-wang')
    expect(r.generatedSlug.length).toBeLessThanOrEqual(60)
  })

  test('Z3 zh slug from the English pair, deduplicated TOC', () => {
    const r = run(X.Z3)
    expect(r.generatedSlug).toBe('static-site-generators-compared')
    expect(failing(r)).toEqual([])
    expect(r.score).toBe(100)
    expect(tocOf(r)).toEqual([...ZH_TOC, ['参考资料-2', 3]])
  })
})
