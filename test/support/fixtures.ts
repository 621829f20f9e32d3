import type { Folio } from './folio.ts'

/** The catalogue's block F (seo-rules.md §6): 10 plain words, one sentence. */
export const F = 'The team reads the docs and picks the best tool.'
const f5 = Array(5).fill(F).join(' ')

/** The worked example E0's body: passes every rule of the catalogue in English. */
export const E0_HTML = [
  `<p>${f5}</p><h2>What is a static site generator?</h2><p>${f5}</p><p>${f5}</p>`,
  `<h2>How do you compare build speed?</h2><p>${f5}</p><p>${f5}</p>`,
  `<img src="https://images.example.org/build.webp" alt="Build time chart">`,
  `<h3>Which tools did we test?</h3><p>${f5}</p><h2>Sources</h2>`,
  `<p>See the <a href="https://gohugo.io/">Hugo docs</a> and the <a href="https://www.11ty.dev/">Eleventy docs</a>, or read our <a href="/en/blog/existing-post">earlier post</a>.</p>`,
].join('\n')

const sentence = (length: number) => `${'A'.repeat(length - 1)}.`.replace(/^(.{10})/, '$1 ').slice(0, length - 1) + '.'

let counter = 0

/**
 * A post body (spec §2.2) that passes every blocking SEO rule, so it can be published; each call
 * gets its own title and slug. Override any field.
 */
export function publishablePost(categoryId: number, authorId: number | null, overrides: Record<string, unknown> = {}) {
  const n = ++counter
  return {
    language: 'en',
    title: `How to Choose a Static Site Generator, part ${n}`,
    slug: `choose-static-site-generator-${n}-${Date.now().toString(36)}`,
    summary: sentence(150),
    seoDescription: sentence(140),
    categoryId,
    authorId,
    coverImage: 'https://images.example.org/cover.webp',
    coverAlt: 'Three static site generator logos on a desk',
    reviewedAt: new Date(Date.now() - 86_400_000).toISOString().slice(0, 19).replace('T', ' '),
    answerSummary:
      'A static site generator turns plain text files into a fast website, and the best one is the one whose build speed and templates fit your team.',
    keyTakeaways: ['Build speed matters for big sites.', 'Templates shape daily writing.', 'Static hosting costs little.'],
    faqBlocks: [
      { question: 'Is a static site secure?', answer: 'Yes, there is no server code to attack.', sortOrder: 1 },
      { question: 'Can I add comments?', answer: 'Yes, through an embedded comment service.', sortOrder: 2 },
    ],
    contentHtml: E0_HTML,
    ...overrides,
  }
}

/** A category and an enabled author to hang posts on. */
export async function seedTaxonomy(folio: Folio, token: string): Promise<{ categoryId: number; authorId: number }> {
  const n = ++counter
  const category = await folio.call('POST', '/api/v1/blog/categories/save', { token, body: { nameEn: `Guides ${n}`, nameZh: '指南' } })
  const author = await folio.call('POST', '/api/v1/blog/authors/save', { token, body: { name: `Jane Doe ${n}`, language: 'en' } })
  if (category.body?.code !== '0000' || author.body?.code !== '0000') throw new Error(`seeding failed: ${category.text} ${author.text}`)
  return { categoryId: category.body.data.id, authorId: author.body.data.id }
}

/** Saves and publishes a post; returns the publish response data. */
export async function publishNewPost(folio: Folio, token: string, post: Record<string, unknown>) {
  const saved = await folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...post, status: 0 } })
  if (saved.body?.code !== '0000') throw new Error(`save failed: ${saved.text}`)
  const published = await folio.call('POST', `/api/v1/blog/posts/${saved.body.data.id}/publish`, { token })
  if (published.body?.code !== '0000') throw new Error(`publish failed: ${published.text}`)
  return published.body.data
}
