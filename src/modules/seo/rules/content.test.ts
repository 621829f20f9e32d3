import { describe } from 'bun:test'
import { E0_HTML, Fx, WORLD_DATA, Z0_HTML, Zx } from '../worked-examples.ts'
import { createTestWorld } from '../test-world.ts'
import { BASE, cases } from './rule-test-helpers.ts'

const { en, zh } = BASE
/** n English words in sentences of 10 words (F). */
const words = (n: number) => `${Fx(Math.floor(n / 10))} ${'word '.repeat(n % 10)}`.trim()
/** n Chinese characters in sentences of 15 (Z). */
const chars = (n: number) => Zx(Math.floor(n / 15)) + '字'.repeat(n % 15)
const p = (text: string) => `<p>${text}</p>`

describe('content rules', () => {
  cases('thin_content', [
    { name: 'en 200 words passes', input: { ...en, contentHtml: p(words(200)) }, passed: true },
    {
      name: 'en 199 words fails',
      input: { ...en, contentHtml: p(words(199)) },
      passed: false,
      message: 'Body has 199 words; publishing needs 200.',
    },
    { name: 'zh 400 chars passes', input: { ...zh, contentHtml: p(chars(400)) }, passed: true },
    {
      name: 'zh 399 chars fails',
      input: { ...zh, contentHtml: p(chars(399)) },
      passed: false,
      message: 'Body has 399 characters; publishing needs 400.',
    },
    {
      name: 'script, pre and alt do not count',
      input: { ...en, contentHtml: p(words(190)) + `<pre>${words(50)}</pre><script>${words(50)}</script><img alt="${words(20)}">` },
      passed: false,
    },
  ])

  cases('content_length', [
    { name: 'en 300 passes', input: { ...en, contentHtml: p(words(300)) }, passed: true },
    { name: 'en 299 fails', input: { ...en, contentHtml: p(words(299)) }, passed: false, message: 'Body has 299 words; 300+ recommended.' },
    { name: 'zh 600 passes', input: { ...zh, contentHtml: p(chars(600)) }, passed: true },
    { name: 'zh 599 fails', input: { ...zh, contentHtml: p(chars(599)) }, passed: false },
  ])

  cases('single_h1', [
    { name: 'no h1 passes', input: en, passed: true },
    {
      name: 'h1 equal to the title, first, passes',
      input: { ...en, contentHtml: `<h1> how to choose a STATIC site generator in 2026</h1>${E0_HTML}` },
      passed: true,
    },
    { name: 'h1 not first fails', input: { ...en, contentHtml: `${E0_HTML}<h1>${en.title}</h1>` }, passed: false },
    {
      name: 'two h1 fail',
      input: { ...zh, contentHtml: `<h1>${zh.title}</h1><h1>${zh.title}</h1>${Z0_HTML}` },
      passed: false,
      message: 'Body has 2 H1 heading(s); the title is the H1.',
    },
  ])

  cases('heading_order', [
    { name: 'no headings is not applicable', input: { ...en, contentHtml: p(words(300)) }, passed: true, message: /^Not applicable:/ },
    { name: 'h2 h3 h4 passes', input: { ...en, contentHtml: '<h2>a</h2><h3>b</h3><h4>c</h4><h2>d</h2>' }, passed: true },
    {
      name: 'h2 then h4 fails',
      input: { ...zh, contentHtml: '<h2>a</h2><h4>b</h4>' },
      passed: false,
      message: 'Heading levels skip (h2 → h4).',
    },
    {
      name: 'empty heading fails',
      input: { ...en, contentHtml: '<h2>a</h2><h3> </h3>' },
      passed: false,
      message: 'Heading levels skip (empty h3).',
    },
  ])

  cases('subheading_distribution', [
    { name: 'en section of 300 passes', input: { ...en, contentHtml: p(words(300)) + `<h2>Next</h2>${p(words(10))}` }, passed: true },
    {
      name: 'en section of 301 fails',
      input: { ...en, contentHtml: p(words(301)) + `<h2>Next</h2>${p(words(10))}` },
      passed: false,
      message: '1 section(s) exceed 300 words without a subheading.',
    },
    { name: 'en short body is not applicable', input: { ...en, contentHtml: p(words(300)) }, passed: true, message: /^Not applicable:/ },
    { name: 'zh section of 600 passes', input: { ...zh, contentHtml: p(chars(600)) + `<h3>下一节</h3>${p(chars(10))}` }, passed: true },
    { name: 'zh section of 601 fails', input: { ...zh, contentHtml: p(chars(601)) + `<h3>下一节</h3>${p(chars(10))}` }, passed: false },
    { name: 'h5 does not open a section', input: { ...en, contentHtml: p(words(200)) + `<h5>Minor</h5>${p(words(200))}` }, passed: false },
  ])

  cases('paragraph_length', [
    { name: 'en 150 passes', input: { ...en, contentHtml: p(words(150)) }, passed: true },
    { name: 'en 151 fails', input: { ...en, contentHtml: p(words(151)) }, passed: false, message: '1 paragraph(s) exceed 150 words.' },
    { name: 'zh 300 passes', input: { ...zh, contentHtml: p(chars(300)) }, passed: true },
    { name: 'zh 301 fails', input: { ...zh, contentHtml: p(chars(301)) }, passed: false, message: '1 paragraph(s) exceed 300 characters.' },
    {
      name: 'no paragraphs is not applicable',
      input: { ...en, contentHtml: '<div>text</div>' },
      passed: true,
      message: /^Not applicable:/,
    },
  ])

  const longEn = `${'word '.repeat(20)}more.` // 21 words
  const longZh = `${'字'.repeat(41)}。`
  cases('sentence_length', [
    {
      name: 'en 25% long passes',
      input: { ...en, contentHtml: p(`${longEn} ${longEn} ${Fx(6)}`) },
      passed: true,
      message: '25% of sentences exceed 20 words.',
    },
    {
      name: 'en 40% long fails',
      input: { ...en, contentHtml: p(`${longEn} ${longEn} ${Fx(3)}`) },
      passed: false,
      message: '40% of sentences exceed 20 words.',
    },
    { name: 'en 20-word sentences are fine', input: { ...en, contentHtml: p(`${'word '.repeat(19)}end. `.repeat(5)) }, passed: true },
    { name: 'zh 25% long passes', input: { ...zh, contentHtml: p(longZh + longZh + Zx(6)) }, passed: true },
    {
      name: 'zh 40% long fails',
      input: { ...zh, contentHtml: p(longZh + longZh + Zx(3)) },
      passed: false,
      message: '40% of sentences exceed 40 characters.',
    },
    {
      name: 'fewer than 5 sentences is not applicable',
      input: { ...en, contentHtml: p(`${longEn} ${longEn}`) },
      passed: true,
      message: /^Not applicable:/,
    },
  ])

  const hard = 'Organizational interdependencies necessitate comprehensive documentation.'
  cases('reading_ease', [
    { name: 'en plain text passes', input: en, passed: true },
    {
      name: 'en dense text fails',
      input: { ...en, contentHtml: p(`${hard} `.repeat(10)) },
      passed: false,
      message: 'Flesch reading ease 0.0; aim for 50+.',
    },
    {
      name: 'en under 50 words is not applicable',
      input: { ...en, contentHtml: p(`${hard} `.repeat(9)) },
      passed: true,
      message: /^Not applicable:/,
    },
    {
      name: 'zh mean 30 passes',
      input: { ...zh, contentHtml: p(`${'字'.repeat(29)}。`.repeat(4)) },
      passed: true,
      message: 'Average sentence 29.0 characters; aim for ≤ 30.',
    },
    {
      name: 'zh mean 31 fails',
      input: { ...zh, contentHtml: p(`${'字'.repeat(31)}。`.repeat(4)) },
      passed: false,
      message: 'Average sentence 31.0 characters; aim for ≤ 30.',
    },
    {
      name: 'zh under 100 chars is not applicable',
      input: { ...zh, contentHtml: p(`${'字'.repeat(31)}。`.repeat(3)) },
      passed: true,
      message: /^Not applicable:/,
    },
  ])

  const passiveEn = 'The docs were written by the team.'
  const passiveZh = '文档被团队仔细地写完了。'
  cases('passive_voice', [
    {
      name: 'en 10% passes',
      input: { ...en, contentHtml: p(`${passiveEn} ${Fx(9)}`) },
      passed: true,
      message: '10% of sentences are passive.',
    },
    {
      name: 'en 20% fails',
      input: { ...en, contentHtml: p(`${passiveEn} ${Fx(4)}`) },
      passed: false,
      message: '20% of sentences are passive (max 10%).',
    },
    { name: 'zh 10% passes', input: { ...zh, contentHtml: p(passiveZh + Zx(9)) }, passed: true },
    { name: 'zh 20% fails', input: { ...zh, contentHtml: p(passiveZh + Zx(4)) }, passed: false },
    { name: 'zh 被子 is not passive', input: { ...zh, contentHtml: p(`我买了新被子。${Zx(4)}`) }, passed: true },
  ])

  cases('image_alt', [
    { name: 'no images is not applicable', input: { ...en, contentHtml: p(words(300)) }, passed: true, message: /^Not applicable:/ },
    {
      name: 'decorative alt="" with role=presentation passes',
      input: { ...en, contentHtml: `${E0_HTML}<img src="https://x.org/a.png" alt="" role="presentation">` },
      passed: true,
    },
    {
      name: 'aria-hidden alt="" passes',
      input: { ...zh, contentHtml: `${Z0_HTML}<img src="https://x.org/a.png" alt="" aria-hidden="true">` },
      passed: true,
    },
    {
      name: 'missing alt fails',
      input: { ...en, contentHtml: `${E0_HTML}<img src="https://x.org/a.png">` },
      passed: false,
      message: '1 of 2 images lack usable alt text.',
    },
    {
      name: 'en 126-char alt fails',
      input: { ...en, contentHtml: `<img src="https://x.org/a.png" alt="${'a'.repeat(126)}">` },
      passed: false,
    },
    {
      name: 'zh 60-char alt passes',
      input: { ...zh, contentHtml: `<img src="https://x.org/a.png" alt="${'字'.repeat(60)}">` },
      passed: true,
    },
    {
      name: 'zh 61-char alt fails',
      input: { ...zh, contentHtml: `<img src="https://x.org/a.png" alt="${'字'.repeat(61)}">` },
      passed: false,
    },
    { name: 'file-name alt fails', input: { ...en, contentHtml: '<img src="https://x.org/a.png" alt="chart.avif">' }, passed: false },
  ])

  cases('internal_links', [
    { name: 'relative link passes', input: en, passed: true, message: '1 internal link(s).' },
    {
      name: 'absolute link on www. of the site host passes',
      input: { ...zh, contentHtml: '<a href="https://www.blog.example.com/cn/blog/x">x</a>' },
      passed: true,
    },
    {
      name: 'fragment, mailto and own URL fail',
      input: {
        ...zh,
        contentHtml: '<a href="#top">t</a><a href="mailto:a@b.c">m</a><a href="/cn/blog/static-site-generator-guide/">self</a>',
      },
      passed: false,
      message: 'No internal links.',
    },
  ])

  cases('outbound_links', [
    { name: 'external link passes', input: en, passed: true },
    {
      name: 'only internal links fail',
      input: { ...en, contentHtml: '<a href="/en/blog/existing-post">x</a>' },
      passed: false,
      message: 'No outbound links.',
    },
    { name: 'protocol-relative link elsewhere counts', input: { ...zh, contentHtml: '<a href="//example.org/">x</a>' }, passed: true },
  ])

  const withMedia = createTestWorld({ ...WORLD_DATA, mediaKeys: ['2026/03/a.webp'] })
  cases('broken_media_url', [
    {
      name: 'stored media passes',
      world: withMedia,
      input: { ...en, coverImage: 'https://blog.example.com/media/2026/03/a.webp' },
      passed: true,
    },
    { name: 'root-relative stored media passes', world: withMedia, input: { ...en, coverImage: '/media/2026/03/a.webp' }, passed: true },
    {
      name: 'missing media object fails on the cover',
      world: withMedia,
      input: { ...en, coverImage: 'https://blog.example.com/media/gone.webp' },
      passed: false,
      message: '1 media URL(s) cannot be served: https://blog.example.com/media/gone.webp.',
    },
    { name: 'http on an https site fails', input: { ...zh, ogImage: 'http://cdn.example.org/a.png' }, passed: false },
    {
      name: 'localhost fails',
      input: { ...en, contentHtml: '<video src="https://localhost/v.mp4" poster="https://a.local/p.png"></video>' },
      passed: false,
      message: /^2 media URL\(s\)/,
    },
    {
      name: 'data: URL fails',
      input: { ...en, contentHtml: '<picture><source src="data:image/png;base64,AAAA"></picture>' },
      passed: false,
    },
    {
      name: 'nothing to serve is not applicable',
      input: { ...en, coverImage: '', contentHtml: p('x') },
      passed: true,
      message: /^Not applicable:/,
    },
  ])
})
