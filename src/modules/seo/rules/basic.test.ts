import { describe } from 'bun:test'
import { BASE, cases, han, letters } from './rule-test-helpers.ts'

const { en, zh } = BASE

describe('basic rules', () => {
  cases('title_length', [
    { name: 'en 20 chars passes', input: { ...en, title: letters(20) }, passed: true },
    { name: 'en 19 chars fails', input: { ...en, title: letters(19) }, passed: false, message: 'Title has 19 characters; aim for 20–70.' },
    { name: 'en 70 chars passes', input: { ...en, title: letters(70) }, passed: true },
    { name: 'en 71 chars fails', input: { ...en, title: letters(71) }, passed: false },
    { name: 'zh 10 chars passes', input: { ...zh, title: han(10) }, passed: true },
    { name: 'zh 9 chars fails', input: { ...zh, title: han(9) }, passed: false, message: 'Title has 9 characters; aim for 10–35.' },
    { name: 'zh 35 chars passes', input: { ...zh, title: han(35) }, passed: true },
    { name: 'zh 36 chars fails', input: { ...zh, title: han(36) }, passed: false },
  ])

  cases('slug_format', [
    { name: '3 chars passes', input: { ...en, slug: 'abc' }, passed: true },
    { name: '2 chars fails', input: { ...en, slug: 'ab' }, passed: false },
    { name: '75 chars passes', input: { ...en, slug: letters(75) }, passed: true },
    { name: '76 chars fails', input: { ...en, slug: letters(76) }, passed: false },
    { name: 'double hyphen fails', input: { ...en, slug: 'a--b' }, passed: false },
    { name: 'upper case fails', input: { ...en, slug: 'Abc' }, passed: false },
    { name: 'zh Han slug fails (ASCII only)', input: { ...zh, slug: '静态网站' }, passed: false },
    { name: 'zh pinyin slug passes', input: { ...zh, slug: 'jing-tai' }, passed: true },
    { name: 'blank slug uses generatedSlug', input: { ...zh, slug: '' }, passed: true, message: /^Slug "2026-nian-ru-he/ },
  ])

  cases('language_match', [
    { name: 'en with 29% Han passes', input: { ...en, title: 'x', contentHtml: `<p>${'word '.repeat(70)}${han(29)}</p>` }, passed: true },
    {
      name: 'en with 30% Han fails',
      input: { ...en, title: 'x', contentHtml: `<p>${'word '.repeat(69)}${han(30)}</p>` },
      passed: false,
      message: 'Post is marked en but 30% of its text is Chinese.',
    },
    { name: 'zh with 50% Han passes', input: { ...zh, title: '字', contentHtml: `<p>${'word '.repeat(50)}${han(49)}</p>` }, passed: true },
    { name: 'zh with 49% Han fails', input: { ...zh, title: '字', contentHtml: `<p>${'word '.repeat(51)}${han(48)}</p>` }, passed: false },
    {
      name: 'fewer than 20 letters and words passes',
      input: { ...zh, title: 'a', contentHtml: '<p>eighteen words here</p>' },
      passed: true,
      message: /^Not applicable:/,
    },
  ])

  cases('summary_present', [
    { name: 'en 80 passes', input: { ...en, summary: letters(80) }, passed: true },
    { name: 'en 79 fails', input: { ...en, summary: letters(79) }, passed: false, message: 'Summary has 79 characters; aim for 80–300.' },
    { name: 'en 300 passes', input: { ...en, summary: letters(300) }, passed: true },
    { name: 'en 301 fails', input: { ...en, summary: letters(301) }, passed: false },
    { name: 'zh 40 passes', input: { ...zh, summary: han(40) }, passed: true },
    { name: 'zh 39 fails', input: { ...zh, summary: han(39) }, passed: false },
    { name: 'zh 150 passes', input: { ...zh, summary: han(150) }, passed: true },
    { name: 'zh 151 fails', input: { ...zh, summary: han(151) }, passed: false },
    { name: 'null fails', input: { ...en, summary: null }, passed: false, message: 'Summary has 0 characters; aim for 80–300.' },
  ])

  cases('cover_present', [
    { name: 'set passes', input: en, passed: true },
    { name: 'blank fails', input: { ...zh, coverImage: '  ' }, passed: false, message: 'No cover image.' },
  ])

  cases('cover_alt', [
    { name: 'no cover is not applicable', input: { ...en, coverImage: '', coverAlt: '' }, passed: true, message: /^Not applicable:/ },
    { name: 'en 125 chars passes', input: { ...en, coverAlt: letters(125) }, passed: true },
    { name: 'en 126 chars fails', input: { ...en, coverAlt: letters(126) }, passed: false, message: 'Cover image has no usable alt text.' },
    { name: 'zh 60 chars passes', input: { ...zh, coverAlt: han(60) }, passed: true },
    { name: 'zh 61 chars fails', input: { ...zh, coverAlt: han(61) }, passed: false },
    { name: 'file name fails', input: { ...en, coverAlt: 'IMG_0042.JPEG' }, passed: false },
    { name: 'blank fails', input: { ...en, coverAlt: ' ' }, passed: false },
  ])
})
