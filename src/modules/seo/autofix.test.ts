import { describe, expect, test } from 'bun:test'
import { autofix } from './autofix.ts'
import { check } from './engine.ts'
import { coverTextInBody } from './suggestions/cover-alt.ts'
import { prng } from './test-world.ts'
import type { SeoInput } from './types.ts'
import { E0, E1, E2, E3, E4, E5, H, NOW, S, WORLD, Z0, Z1, Z2, Z3 } from './worked-examples.ts'

/** Values each field may take in a generated post: good ones, bad ones, and ones that collide with the world. */
const CHOICES: { [K in keyof SeoInput]?: readonly SeoInput[K][] } = {
  slug: ['', 'choose-static-site-generator', 'existing-post', 'Static Site Guide!', 'x', 'existing-zh', '静态', 'a'.repeat(80)],
  seoTitle: ['', S(75), S(20), S(45), '字'.repeat(40), H(20)],
  seoDescription: ['', S(90), S(140), S(200), H(70), H(100)],
  canonicalUrl: [
    '',
    'https://blog.example.com/',
    'https://blog.example.com/en/blog/x',
    'https://other.example.org/a',
    'ftp://x',
    'https://blog.example.com/a#b',
  ],
  coverAlt: ['', 'cover.webp', 'A desk with three logos', 'word '.repeat(40), '字'.repeat(70)],
  coverImage: ['', 'https://images.example.org/cover.webp'],
  alternateSlug: ['', 'no-such-post', 'existing-zh', 'static-site-generators-compared', 'existing-post'],
  title: [E0.title, Z0.title, 'Hi', 'word '.repeat(30), '静态网站生成器怎么选'.repeat(4), 'Static sites'],
  summary: ['', S(90), S(150), H(70)],
  id: [null, 100, 101, 200, 555],
}
const BASES = [E0, E1, E2, E3, E4, E5, Z0, Z1, Z2, Z3]

function generatedPost(random: () => number): SeoInput {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
  const post: Record<string, unknown> = { ...pick(BASES) }
  for (const [field, values] of Object.entries(CHOICES)) if (random() < 0.5) post[field] = pick(values as readonly unknown[])
  return post as unknown as SeoInput
}

const passing = (input: SeoInput) =>
  new Set(
    check(input, WORLD, NOW)
      .items.filter((item) => item.passed)
      .map((item) => item.code),
  )

describe('autofix', () => {
  test('fixes what it can: the worked examples with auto-fixable failures', () => {
    expect(autofix(E2, WORLD, NOW).applied).toEqual(['seo_title', 'seo_description'])
    const e3 = autofix(E3, WORLD, NOW)
    expect(e3.applied).toEqual(['slug', 'canonical_self'])
    expect(e3.input.slug).toBe('how-to-choose-a-static-site-generator-in-2026')
    expect(e3.input.canonicalUrl).toBe('')
    const z2 = autofix(Z2, WORLD, NOW)
    expect(z2.applied).toContain('cover_alt')
    expect(z2.result.canPublish).toBe(true)
    expect(autofix(E0, WORLD, NOW)).toMatchObject({ applied: [], input: E0 })
  })

  test('property, over 150 generated posts: no passing rule fails after autofix, and autofix of the result changes nothing', () => {
    const random = prng(20261124)
    for (let i = 0; i < 150; i++) {
      const post = generatedPost(random)
      const before = passing(post)
      const once = autofix(post, WORLD, NOW)
      const after = passing(once.input)
      for (const code of before) expect({ post: i, code, passes: after.has(code) }).toEqual({ post: i, code, passes: true })
      const twice = autofix(once.input, WORLD, NOW)
      expect(twice.applied).toEqual([])
      expect(twice.input).toEqual(once.input)
    }
  }, 60_000)

  test('cover_alt prefers the body: the caption of the figure holding the cover, else its own alt, else the title', () => {
    const cover = 'https://media.example.org/cover.webp'
    const figure = `<figure><img src="${cover}" alt="Logos"><figcaption>Three generator <b>logos</b> on a desk</figcaption></figure>`
    const post = { ...E0, coverImage: cover, coverAlt: '' }
    expect(autofix({ ...post, contentHtml: `${figure}${E0.contentHtml}` }, WORLD, NOW).input.coverAlt).toBe(
      'Three generator logos on a desk',
    )
    expect(
      autofix({ ...post, contentHtml: `<p><img src="${cover}" alt="A desk, seen from above"></p>${E0.contentHtml}` }, WORLD, NOW).input
        .coverAlt,
    ).toBe('A desk, seen from above')
    // A file name is no description; another image's caption says nothing about the cover.
    const other = `<figure><img src="https://media.example.org/x.webp" alt="x"><figcaption>Other</figcaption></figure><img src="${cover}" alt="cover.webp">`
    expect(autofix({ ...post, contentHtml: `${other}${E0.contentHtml}` }, WORLD, NOW).input.coverAlt).toBe(E0.title)
  })

  test('the cover text scan takes deep and long hostile bodies in one walk', () => {
    const cover = 'https://media.example.org/c.webp'
    const nested = `${'<figure>'.repeat(20_000)}<img src="${cover}"><figcaption>${'x'.repeat(100_000)}`
    // Unclosed figures close at the end of the input, as in browsers; one walk, however deep.
    expect(coverTextInBody(nested, cover).caption).toBe('x'.repeat(100_000))
    expect(coverTextInBody(`<img src="${cover}" alt="a">`.repeat(20_000), cover).alt).toBe('a')
  })
})
