/**
 * The worked examples of seo-rules.md §6 as data, shared by the tests and the benchmark.
 * Blocks are built exactly as §6 defines them.
 */
import { createTestWorld, type TestWorldData } from './test-world.ts'
import type { SeoInput } from './types.ts'

export const NOW = new Date('2026-03-01T00:00:00Z')

export const WORLD_DATA: TestWorldData = {
  siteUrl: 'https://blog.example.com',
  mediaUrl: 'https://blog.example.com/media',
  posts: [
    { id: 100, language: 'en', slug: 'existing-post' },
    { id: 101, language: 'en', slug: 'static-site-generators-compared' },
    { id: 200, language: 'zh', slug: 'existing-zh' },
  ],
  authors: [{ id: 7, status: 1 }],
  categories: [{ id: 1, nameEn: 'Guides', nameZh: '指南' }],
}
export const WORLD = createTestWorld(WORLD_DATA)

export const F = 'The team reads the docs and picks the best tool.'
export const Z = '我们先读文档，再挑选最合适的工具。'
export const times = (block: string, k: number, separator: string): string => Array.from({ length: k }, () => block).join(separator)
export const Fx = (k: number): string => times(F, k, ' ')
export const Zx = (k: number): string => times(Z, k, '')

/** S(n): an n-character English sentence ending in "." with no Han. */
export function S(n: number): string {
  const words = times('Static sites load fast and cost little to host', Math.ceil(n / 40) + 1, ' ')
  const body = words.slice(0, n - 1)
  return `${body.endsWith(' ') ? `${body.slice(0, -1)}x` : body}.`
}

/** H(n): n characters of Han ending in "。". */
export const H = (n: number): string => `${times('静态网站生成器很快', Math.ceil(n / 9), '').slice(0, n - 1)}。`

export const E0_HTML = [
  `<p>${Fx(5)}</p><h2>What is a static site generator?</h2><p>${Fx(5)}</p><p>${Fx(5)}</p>`,
  `<h2>How do you compare build speed?</h2><p>${Fx(5)}</p><p>${Fx(5)}</p>`,
  '<img src="https://images.example.org/build.webp" alt="Build time chart">',
  `<h3>Which tools did we test?</h3><p>${Fx(5)}</p><h2>Sources</h2>`,
  '<p>See the <a href="https://gohugo.io/">Hugo docs</a> and the <a href="https://www.11ty.dev/">Eleventy docs</a>, or read our <a href="/en/blog/existing-post">earlier post</a>.</p>',
].join('\n')

export const E0: SeoInput = {
  language: 'en',
  title: 'How to Choose a Static Site Generator in 2026',
  slug: 'choose-static-site-generator',
  summary: S(150),
  seoTitle: '',
  seoDescription: S(140),
  categoryId: 1,
  authorId: 7,
  coverImage: 'https://images.example.org/cover.webp',
  coverAlt: 'Three static site generator logos on a desk',
  canonicalUrl: '',
  alternateSlug: '',
  indexable: true,
  reviewedAt: '2026-02-01 10:00:00',
  answerSummary:
    'A static site generator turns templates and content into plain HTML files ahead of time, so pages load fast, cost little to host, and leave no server code to attack.',
  keyTakeaways: ['Build speed matters for large sites.', 'Template languages shape daily writing.', 'Static output is cheap to host.'],
  faqBlocks: [
    { question: 'Is a static site secure?', answer: 'Yes, there is no server code to attack.', sortOrder: 1 },
    { question: 'Can I add comments?', answer: 'Yes, through an embedded comment service.', sortOrder: 2 },
  ],
  contentHtml: E0_HTML,
}

export const Z0_HTML = [
  `<p>${Zx(8)}</p><h2>什么是静态网站生成器？</h2><p>${Zx(8)}</p><p>${Zx(8)}</p>`,
  `<h2>如何比较构建速度？</h2><p>${Zx(8)}</p><p>${Zx(8)}</p>`,
  '<img src="https://images.example.org/build.webp" alt="构建时间对比图">',
  `<h3>我们测试了哪些工具？</h3><p>${Zx(8)}</p><h2>参考资料</h2>`,
  '<p>参考 <a href="https://gohugo.io/">Hugo 文档</a>、<a href="https://www.11ty.dev/">Eleventy 文档</a>和我们的<a href="/cn/blog/existing-zh">上一篇文章</a>。</p>',
].join('\n')

export const Z0: SeoInput = {
  ...E0,
  language: 'zh',
  title: '2026 年如何选择合适的静态网站生成器',
  slug: 'static-site-generator-guide',
  summary: Zx(4),
  seoDescription: H(70),
  coverAlt: '桌上的三个静态网站生成器标志',
  answerSummary: H(80),
  keyTakeaways: ['构建速度对大型站点很重要。', '模板语言影响日常写作。', '静态输出的托管成本很低。'],
  faqBlocks: [
    { question: '静态网站安全吗？', answer: '安全，因为服务器上没有可以攻击的代码。' },
    { question: '可以添加评论吗？', answer: '可以，通过嵌入第三方评论服务实现。' },
  ],
  contentHtml: Z0_HTML,
}

export const E1: SeoInput = { ...E0, slug: 'existing-post', coverAlt: '', contentHtml: `<p>${Fx(12)}</p>` }
export const E2: SeoInput = { ...E0, seoTitle: S(75), seoDescription: '', summary: S(90), indexable: false }
export const E3: SeoInput = { ...E0, slug: 'Static Site Guide!', canonicalUrl: 'https://blog.example.com/', alternateSlug: 'no-such-post' }
export const E4: SeoInput = {
  ...E0,
  contentHtml: `<h1>Intro</h1>${E0_HTML.replace('<h2>What is a static site generator?</h2>', '<h3>What is a static site generator?</h3>')}<img src="blob:https://blog.example.com/8f1c" alt="">`,
}
export const E5: SeoInput = {
  ...E0,
  answerSummary: '',
  keyTakeaways: [],
  faqBlocks: [{ question: 'What is SSG?', answer: '', sortOrder: 1 }],
  authorId: null,
  author: 'Jane Doe',
  reviewedAt: '',
}
export const Z1: SeoInput = { ...Z0, contentHtml: E0_HTML }
export const Z2: SeoInput = { ...Z0, title: times('静态网站生成器怎么选', 4, ''), seoDescription: H(100), coverAlt: 'cover.webp' }
export const Z3: SeoInput = {
  ...Z0,
  slug: '',
  alternateSlug: 'static-site-generators-compared',
  contentHtml: `${Z0_HTML}<h3>参考资料</h3><p>${Zx(2)}</p>`,
}
