import { describe, expect, test } from 'bun:test'
import { createTestWorld } from '../test-world.ts'
import type { SeoInput } from '../types.ts'
import { cutToFit } from './cut.ts'
import { generatedCoverAlt } from './cover-alt.ts'
import { generatedExcerpt, generatedSeoDescription } from './description.ts'
import { generatedOgTitle, generatedSeoTitle } from './seo-title.ts'
import { slugFromTitle, suggestSlug } from './slug.ts'

const world = createTestWorld({
  posts: [
    { id: 1, language: 'en', slug: 'hello-world' },
    { id: 2, language: 'en', slug: 'hello-world-2' },
    { id: 3, language: 'en', slug: 'old', previousSlugs: ['moved'] },
  ],
})
const post = (title: string, extra: Partial<SeoInput> = {}): SeoInput => ({
  language: 'en',
  title,
  contentHtml: '',
  categoryId: 1,
  ...extra,
})
const para = (text: string) => ({ text, units: 0 })

describe('generatedSlug', () => {
  test('titles become readable ASCII slugs', () => {
    expect(slugFromTitle('如何用 Docker 部署 Node.js')).toBe('ru-he-yong-docker-bu-shu-node-js')
    expect(slugFromTitle("Ça marche: l'été 2026 — What’s new?")).toBe('ca-marche-lete-2026-whats-new')
    expect(slugFromTitle('绿色')).toBe('lu-se')
  })
  test('over 60 characters is cut at the last hyphen (hard cut without one)', () => {
    expect(slugFromTitle('word '.repeat(20))).toBe('word-'.repeat(11) + 'word')
    expect(slugFromTitle('x'.repeat(70))).toBe('x'.repeat(60))
  })
  test('too short falls back to post-{id} or a hash', () => {
    expect(suggestSlug(post('!?', { id: 42 }), world)).toBe('post-42')
    expect(suggestSlug(post('Hi'), world)).toMatch(/^post-[0-9a-f]{8}$/)
    expect(suggestSlug(post('Hi'), world)).toBe(suggestSlug(post('Hi'), world))
    expect(suggestSlug(post('Hi'), world)).not.toBe(suggestSlug(post('Hi', { language: 'zh' }), world))
  })
  test('taken slugs (current or previous) get -2, -3…; its own slug is not taken', () => {
    expect(suggestSlug(post('Hello, World'), world)).toBe('hello-world-3')
    expect(suggestSlug(post('Moved'), world)).toBe('moved-2')
    expect(suggestSlug(post('Hello world', { id: 1 }), world)).toBe('hello-world')
    expect(suggestSlug(post('Hello world', { language: 'zh' }), world)).toBe('hello-world')
  })
  test('a zh post paired with an existing en post reuses its slug', () => {
    expect(suggestSlug(post('你好', { language: 'zh', alternateSlug: 'old' }), world)).toBe('old')
    expect(suggestSlug(post('你好', { language: 'zh', alternateSlug: 'moved' }), world)).toBe('ni-hao')
  })
})

describe('generatedSeoTitle / generatedOgTitle', () => {
  const guides = { nameEn: 'Guides', nameZh: '指南' }
  test('long titles are cut at a word boundary (en) or character (zh) to width 60', () => {
    const long = 'How to choose a static site generator for documentation, blogs, and shops'
    expect(generatedSeoTitle(long, 'en', guides)).toBe('How to choose a static site generator for documentation')
    expect(generatedSeoTitle('字'.repeat(40), 'zh', guides)).toBe('字'.repeat(30))
  })
  test('zh prefers a clause mark that keeps at least half the width', () => {
    expect(generatedSeoTitle(`${'字'.repeat(20)}，${'字'.repeat(20)}`, 'zh', undefined)).toBe('字'.repeat(20))
    expect(generatedSeoTitle(`字，${'字'.repeat(40)}`, 'zh', undefined)).toBe(`字，${'字'.repeat(28)}`)
  })
  test('short titles get the category name when it still fits', () => {
    expect(generatedSeoTitle('Static sites', 'en', guides)).toBe('Static sites | Guides')
    expect(generatedSeoTitle('静态网站', 'zh', guides)).toBe('静态网站｜指南')
    expect(generatedSeoTitle('Static sites', 'en', undefined)).toBe('Static sites')
    expect(generatedSeoTitle('Static', 'en', { nameEn: 'x'.repeat(60), nameZh: '' })).toBe('Static')
  })
  test('og title: 95 / 45 characters, no suffix', () => {
    expect(generatedOgTitle('word '.repeat(30), 'en')).toBe('word '.repeat(19).trim())
    expect(generatedOgTitle('字'.repeat(50), 'zh')).toBe('字'.repeat(45))
    expect(generatedOgTitle('Short', 'en')).toBe('Short')
  })
  test('cut strips trailing punctuation', () => {
    expect(cutToFit('Alpha, beta, gamma', 13, 'en')).toBe('Alpha, beta')
  })
})

describe('generatedSeoDescription / generatedExcerpt', () => {
  const s = (n: number) => `${'a'.repeat(n - 1)}.`
  test('summary sentences, then first paragraph sentences, until the minimum', () => {
    expect(generatedSeoDescription(`${s(60)} ${s(50)}`, [para(`${s(30)} ${s(30)}`)], 'en')).toBe(`${s(60)} ${s(50)} ${s(30)}`)
  })
  test('stops when the next sentence would not fit', () => {
    expect(generatedSeoDescription(s(100), [para(`${s(60)} ${s(10)}`)], 'en')).toBe(s(100))
  })
  test('a first paragraph repeating the summary is skipped for the next', () => {
    expect(generatedSeoDescription(s(100), [para(''), para(s(100)), para(s(40))], 'en')).toBe(`${s(100)} ${s(40)}`)
  })
  test('a first sentence too long is cut with an ellipsis', () => {
    const cut = generatedSeoDescription('word '.repeat(50), [], 'en')
    expect(cut.endsWith('word…')).toBe(true)
    expect([...cut].length).toBeLessThanOrEqual(156)
    expect(generatedSeoDescription('字'.repeat(100), [], 'zh')).toBe(`${'字'.repeat(79)}…`)
  })
  test('zh joins sentences without spaces', () => {
    expect(generatedSeoDescription('一二三四五六七八九十。'.repeat(7), [], 'zh')).toBe('一二三四五六七八九十。'.repeat(6))
  })
  test('excerpt: summary, else first paragraph cut at a sentence end within 300 / 150', () => {
    expect(generatedExcerpt('  The summary. ', [para('x')], 'en')).toBe('The summary.')
    expect(generatedExcerpt('', [para(''), para(`${s(200)} ${s(200)}`)], 'en')).toBe(s(200))
    expect(generatedExcerpt('', [para('字'.repeat(200))], 'zh')).toBe(`${'字'.repeat(149)}…`)
    expect(generatedExcerpt('', [], 'en')).toBe('')
  })
  test('cover alt autofix: the title cut to 125 / 60', () => {
    expect(generatedCoverAlt('word '.repeat(40), 'en')).toBe('word '.repeat(25).trim())
    expect(generatedCoverAlt('字'.repeat(70), 'zh')).toBe('字'.repeat(60))
  })
})
