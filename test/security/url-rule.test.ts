import { describe, expect, test } from 'bun:test'
import corpus from './corpus/urls.json'
import { isUsableMediaUrl } from '../../src/modules/seo/media.ts'
import { checkLink, checkMedia, linkFault, mediaFault } from '../../src/shared/url-rule.ts'

describe('links: absolute http(s), nothing hidden (test/security/corpus/urls.json)', () => {
  test.each(corpus.links.accepted)('accepted: %p', (url) => expect(linkFault(url)).toBeNull())
  test.each(corpus.links.refused)('refused: %p', (url) => {
    expect(linkFault(url)).not.toBeNull()
    expect(() => checkLink('field', url)).toThrow(/^field: /)
  })
  test('blank means "none"', () => expect(() => checkLink('field', '  ')).not.toThrow())
})

describe('media: the catalogue\'s "usable media URL", clause by clause', () => {
  for (const [siteName, { siteUrl, clauses }] of Object.entries(corpus.media)) {
    for (const [clause, { accepted, refused }] of Object.entries(clauses as Record<string, { accepted: string[]; refused: string[] }>)) {
      test(`${siteName}: ${clause}`, () => {
        const site = { siteUrl, mediaUrl: `${siteUrl}/media`, mediaKeys: new Set(['a.png', '2026/03/a.png']) }
        for (const url of accepted) expect([url, mediaFault(url, siteUrl)]).toEqual([url, null])
        for (const url of refused) {
          // Refused by the write rule and by the publish gate alike: one rule.
          if (url.trim() !== '') expect([url, isUsableMediaUrl(url, site)]).toEqual([url, false])
          expect(mediaFault(url, siteUrl)).not.toBeNull()
        }
      })
    }
  }

  test('under MEDIA_URL the object must exist in the media store', async () => {
    const site = { siteUrl: 'https://blog.example.com', mediaUrl: 'https://blog.example.com/media' }
    const exists = async (key: string) => key === '2026/03/a.png'
    await checkMedia('avatar', '/media/2026/03/a.png', site, exists)
    await checkMedia('avatar', 'https://cdn.example.org/elsewhere.png', site, exists)
    expect(checkMedia('avatar', '/media/2026/03/missing.png', site, exists)).rejects.toThrow(
      'avatar: not a usable media URL: no media object 2026/03/missing.png',
    )
    expect(isUsableMediaUrl('/media/2026/03/missing.png', { ...site, mediaKeys: new Set(['2026/03/a.png']) })).toBe(false)
  })
})
