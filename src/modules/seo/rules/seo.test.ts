import { describe } from 'bun:test'
import { createTestWorld } from '../test-world.ts'
import { WORLD_DATA } from '../worked-examples.ts'
import { BASE, cases, han, letters } from './rule-test-helpers.ts'

const { en, zh } = BASE

describe('seo rules', () => {
  cases('seo_title_length', [
    { name: 'en width 30 passes', input: { ...en, seoTitle: letters(30) }, passed: true },
    {
      name: 'en width 29 fails',
      input: { ...en, seoTitle: letters(29) },
      passed: false,
      message: 'Search title width 29; aim for 30–60 (CJK counts 2).',
    },
    { name: 'en width 60 passes', input: { ...en, seoTitle: letters(60) }, passed: true },
    { name: 'en width 61 fails', input: { ...en, seoTitle: letters(61) }, passed: false },
    { name: 'zh 15 CJK (width 30) passes', input: { ...zh, seoTitle: han(15) }, passed: true },
    { name: 'zh 14 CJK fails', input: { ...zh, seoTitle: han(14) }, passed: false },
    { name: 'zh 30 CJK (width 60) passes', input: { ...zh, seoTitle: han(30) }, passed: true },
    { name: 'zh 29 CJK + "！" (width 60) passes', input: { ...zh, seoTitle: `${han(29)}！` }, passed: true },
    {
      name: 'zh 31 CJK fails',
      input: { ...zh, seoTitle: han(31) },
      passed: false,
      message: 'Search title width 62; aim for 30–60 (CJK counts 2).',
    },
    { name: 'blank falls back to the title', input: { ...zh, seoTitle: '  ' }, passed: true, message: 'Search title width 35.' },
  ])

  cases('seo_description_length', [
    { name: 'en 120 passes', input: { ...en, seoDescription: letters(120) }, passed: true },
    {
      name: 'en 119 fails',
      input: { ...en, seoDescription: letters(119) },
      passed: false,
      message: 'Search description has 119 characters; aim for 120–156.',
    },
    { name: 'en 156 passes', input: { ...en, seoDescription: letters(156) }, passed: true },
    { name: 'en 157 fails', input: { ...en, seoDescription: letters(157) }, passed: false },
    { name: 'zh 60 passes', input: { ...zh, seoDescription: han(60) }, passed: true },
    { name: 'zh 59 fails', input: { ...zh, seoDescription: han(59) }, passed: false },
    { name: 'zh 80 passes', input: { ...zh, seoDescription: han(80) }, passed: true },
    {
      name: 'zh 81 fails',
      input: { ...zh, seoDescription: han(81) },
      passed: false,
      message: 'Search description has 81 characters; aim for 60–80.',
    },
  ])

  const fault = (reason: string) => `Canonical URL ${reason}.`
  cases('canonical_valid', [
    { name: 'blank is self', input: en, passed: true, message: /^Not applicable:/ },
    {
      name: 'another site passes',
      input: { ...en, canonicalUrl: 'https://other.example.org/guide' },
      passed: true,
      message: 'Consolidates to https://other.example.org/guide.',
    },
    { name: 'own language path passes', input: { ...en, canonicalUrl: 'https://blog.example.com/en/blog/existing-post' }, passed: true },
    {
      name: 'relative fails',
      input: { ...en, canonicalUrl: '/en/blog/x' },
      passed: false,
      message: fault('is not an absolute http(s) URL'),
    },
    {
      name: 'ftp fails',
      input: { ...en, canonicalUrl: 'ftp://blog.example.com/x' },
      passed: false,
      message: fault('is not an absolute http(s) URL'),
    },
    {
      name: 'fragment fails',
      input: { ...en, canonicalUrl: 'https://other.org/a#b' },
      passed: false,
      message: fault('contains a fragment'),
    },
    {
      name: 'another root fails',
      input: { ...zh, canonicalUrl: 'https://other.org' },
      passed: false,
      message: fault('points to the site root'),
    },
    {
      name: 'http on the https site fails',
      input: { ...en, canonicalUrl: 'http://www.blog.example.com/en/blog/x' },
      passed: false,
      message: fault('uses another scheme than the site'),
    },
    {
      name: 'zh pointing to /en fails',
      input: { ...zh, canonicalUrl: 'https://blog.example.com/en/blog/x' },
      passed: false,
      message: fault('points to the other language'),
    },
    {
      name: 'en pointing to /cn fails',
      input: { ...en, canonicalUrl: 'https://blog.example.com/cn/blog/x' },
      passed: false,
      message: fault('points to the other language'),
    },
  ])

  const paired = createTestWorld({
    ...WORLD_DATA,
    posts: [
      { id: 300, language: 'zh', slug: 'paired-zh', alternateSlug: 'choose-static-site-generator' },
      { id: 301, language: 'zh', slug: 'taken-zh', alternateSlug: 'another-en-post' },
      { id: 302, language: 'zh', slug: 'gone-zh', deleted: true },
      { id: 303, language: 'en', slug: 'lonely-en' },
    ],
  })
  cases('hreflang_pair', [
    { name: 'blank is not applicable', input: en, passed: true, message: /^Not applicable:/ },
    { name: 'reciprocal pair passes', world: paired, input: { ...en, alternateSlug: 'paired-zh' }, passed: true },
    { name: 'pair with a blank alternateSlug passes', world: paired, input: { ...zh, alternateSlug: 'lonely-en' }, passed: true },
    {
      name: 'pair pointing elsewhere fails',
      world: paired,
      input: { ...en, alternateSlug: 'taken-zh' },
      passed: false,
      message: 'The zh post "taken-zh" pairs with "another-en-post".',
    },
    {
      name: 'deleted post fails',
      world: paired,
      input: { ...en, alternateSlug: 'gone-zh' },
      passed: false,
      message: 'No zh post has slug "gone-zh".',
    },
    { name: 'same-language post fails', world: paired, input: { ...zh, alternateSlug: 'taken-zh' }, passed: false },
  ])
})
