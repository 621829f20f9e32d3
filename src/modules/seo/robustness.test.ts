import { describe, expect, test } from 'bun:test'
import { contentText } from './content-text.ts'
import { check } from './engine.ts'
import { withHeadingIds } from './heading-ids.ts'
import { analyseBody } from './html/document.ts'
import { mediaKeysOf } from './media.ts'
import { RULES } from './rules/index.ts'
import { toc } from './toc.ts'
import { prng } from './test-world.ts'
import type { SeoInput } from './types.ts'
import { cpuMs } from '../../../test/support/cpu.ts'
import { E0, NOW, WORLD, Z0 } from './worked-examples.ts'

const PIECES = [
  '<p>',
  '</p>',
  '<h2>',
  '</h2>',
  '<h3 id="x">',
  '</h3>',
  '<h1>',
  '<pre>',
  '</pre>',
  '<code>',
  '<blockquote>',
  '</div>',
  '<div',
  '<a href="https://x.org/">',
  '<a href="/en/blog/a">',
  '</a>',
  '<img src="/media/a.png" alt="">',
  '<img alt=a.png>',
  '<br>',
  '<script>',
  '</script>',
  '<!--',
  '-->',
  '<!doctype html>',
  '<template>',
  '</template>',
  '<svg><text>t</text></svg>',
  '<',
  '>',
  '&amp;',
  '&#x1F600;',
  '&#99999999;',
  '&bogus;',
  '"',
  "'",
  '=',
  ' ',
  '\n',
  'Hello world. ',
  'Why? ',
  '被子',
  '我们。',
  '什么',
  'é',
  '\u0000',
  '\uD800',
  '𠀀',
  'is written ',
  '<video poster="//localhost/p">',
  '<source src="data:x">',
  '</P>',
]

function randomHtml(random: () => number, length: number): string {
  let html = ''
  for (let i = 0; i < length; i++) html += PIECES[Math.floor(random() * PIECES.length)]
  return html
}

const CODES = RULES.map((rule) => rule.code)

function expectWellFormed(input: SeoInput) {
  const result = check(input, WORLD, NOW)
  expect(result.items.map((item) => item.code)).toEqual(CODES)
  expect(result.score).toBe(result.passedWeight)
  expect(result.totalWeight).toBe(100)
  expect(result.aeoScore % 5).toBe(0)
  return result
}

describe('the engine never throws', () => {
  test('500 random malformed bodies, both languages', () => {
    const random = prng(20260301)
    for (let i = 0; i < 500; i++) {
      const html = randomHtml(random, 1 + Math.floor(random() * 80))
      const base = i % 2 === 0 ? E0 : Z0
      expectWellFormed({ ...base, contentHtml: html, title: randomHtml(random, 3), summary: randomHtml(random, 4) })
      const withIds = withHeadingIds(html)
      expect(withHeadingIds(withIds)).toBe(withIds)
      expect(toc(withIds).map((item) => item.id)).toEqual(toc(html).map((item) => item.id))
      contentText(html)
      mediaKeysOf({ ...base, contentHtml: html }, WORLD.mediaUrl)
    }
  })

  test('empty strings and nulls for every optional field', () => {
    const bare: SeoInput = { language: 'en', title: '', contentHtml: '', categoryId: 0 }
    const nulls: SeoInput = {
      ...bare,
      id: null,
      summary: null,
      slug: null,
      alternateSlug: null,
      coverImage: null,
      coverAlt: null,
      ogImage: null,
      authorId: null,
      author: null,
      seoTitle: null,
      seoDescription: null,
      canonicalUrl: null,
      robots: null,
      indexable: null,
      answerSummary: null,
      keyTakeaways: null,
      faqBlocks: null,
      reviewedAt: null,
    }
    for (const input of [bare, nulls, { ...nulls, language: 'zh' as const }]) {
      const result = expectWellFormed(input)
      expect(result.generatedSlug).toMatch(/^post-[0-9a-f]{8}$/)
    }
    // A JavaScript caller may break the types; the check still answers.
    expectWellFormed({ ...bare, title: null, contentHtml: undefined, keyTakeaways: [null], faqBlocks: [null] } as unknown as SeoInput)
  })

  test('10,000 nested elements finish', () => {
    for (const tag of ['div', 'p', 'h2', 'blockquote', 'code']) {
      const html = `<${tag}>`.repeat(10_000) + 'deep text' + `</${tag}>`.repeat(10_000)
      expectWellFormed({ ...E0, contentHtml: html })
      expect(withHeadingIds(withHeadingIds(html))).toBe(withHeadingIds(html))
    }
  })

  test('a 1 MB body finishes quickly', () => {
    const html = `<h2>Part</h2><p>${E0.contentHtml}</p>`.repeat(Math.ceil(1_000_000 / (E0.contentHtml.length + 25)))
    let result!: ReturnType<typeof expectWellFormed>
    expect(cpuMs(() => (result = expectWellFormed({ ...E0, contentHtml: html })))).toBeLessThan(3000)
    expect(result.toc.length).toBeGreaterThan(1000)
  })

  test('inputs that are quadratic for a naive regex tokenizer stay fast', () => {
    const nasty = [
      '<a '.repeat(100_000),
      '<!--x>'.repeat(50_000),
      `<a${' '.repeat(200_000)}x>`,
      `<p>${'a'.repeat(200_000)}`,
      '</p>'.repeat(50_000),
      `<h2 id="${'"'.repeat(10_000)}">x</h2>`,
    ]
    for (const html of nasty)
      expect(
        cpuMs(() => {
          expectWellFormed({ ...Z0, contentHtml: html })
          withHeadingIds(html)
        }),
      ).toBeLessThan(1500)
  })
})

describe('the HTML walk at the 500,000-character limit', () => {
  const LIMIT = 500_000
  const fill = (unit: string, prefix = '', suffix = '') =>
    prefix + unit.repeat(Math.floor((LIMIT - prefix.length - suffix.length) / unit.length)) + suffix
  // Each is what a tokenizer or its open-element stack could spend quadratic time on. The walk of
  // every one takes well under 100 ms; the bound only catches O(n²), which costs seconds to minutes.
  const bodies: Record<string, string> = {
    'a run of <': fill('<'),
    'a run of <!--': fill('<!--'),
    'an unclosed comment': fill('x', '<p>a</p><!--'),
    'an unclosed script': fill('<p>x</p>', '<script>'),
    'an unclosed CDATA section': fill('x', '<![CDATA['),
    'elements nested 100,000 deep': fill('<div>'),
    'headings and paragraphs nested 70,000 deep': fill('<h2><p>'),
    'deep nesting, then end tags of nothing open': fill('<div>').slice(0, LIMIT / 2) + fill('</span>').slice(0, LIMIT / 2),
    'stray </p>': fill('</p>'),
    'stray </br>': fill('</br>'),
    'nested forms': fill('<form>'),
    'entity starts': fill('&#'),
    'an entity name as long as the body': fill('a', '&', ';'),
    'whitespace inside a tag': fill(' ', '<h2', '>x</h2>'),
    'attributes without end': fill(' a=1', '<p'),
  }
  for (const [name, html] of Object.entries(bodies)) {
    test(name, () => {
      let facts!: ReturnType<typeof analyseBody>
      let withIds = ''
      const cpu = cpuMs(() => {
        facts = analyseBody(html)
        withIds = withHeadingIds(html, facts)
        expect(withHeadingIds(withIds)).toBe(withIds)
      })
      expect(cpu).toBeLessThan(3_000)
      expect(facts.units).toBeGreaterThanOrEqual(0)
    })
  }

  test('text around 100,000-deep nesting is all counted, in order', () => {
    const facts = analyseBody(`<p>first</p>${'<div>'.repeat(100_000)}middle${'</div>'.repeat(100_000)}<p>last</p>`)
    expect(facts.text).toBe('first\nmiddle\nlast')
  })
})

describe('repeated headings cost linear time', () => {
  // 49,000 identical headings fit under the 500,000-character body limit; the -n dedupe once
  // made this quadratic (minutes on the request thread). Generous bound: this is a regression
  // guard against O(n²), not a benchmark.
  test('toc, heading ids and the whole check of 49,000 identical headings', () => {
    const html = '<h2>a</h2>'.repeat(49_000)
    const cpu = cpuMs(() => {
      const items = toc(html)
      expect(items.at(-1)!.id).toBe('a-49000')
      expect(toc(withHeadingIds(html)).map((i) => i.id)).toEqual(items.map((i) => i.id))
      expect(check({ ...E0, contentHtml: html }, WORLD, NOW).items).toHaveLength(33)
    })
    expect(cpu).toBeLessThan(10_000)
  })
})
