import { E0, Z0 } from '../../src/modules/seo/worked-examples.ts'
import type { SeoInput } from '../../src/modules/seo/types.ts'
import type { Folio } from './folio.ts'

export { F } from '../../src/modules/seo/worked-examples.ts'

/** The worked example E0's body (seo-rules.md §6): passes every rule of the catalogue in English. */
export const E0_HTML = E0.contentHtml

let counter = 0
const stamp = () => `${++counter}-${Date.now().toString(36)}`

/** A catalogue example as a post request, reviewed yesterday so reviewed_recent passes whatever the date. */
function fromExample(example: SeoInput, categoryId: number, authorId: number | null, fields: Record<string, unknown>) {
  const { id: _id, ...rest } = example
  const reviewedAt = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19).replace('T', ' ')
  return { ...rest, categoryId, authorId, reviewedAt, ...fields }
}

/**
 * A post body (spec §2.2) built on the catalogue's clean English example E0: it passes every
 * SEO rule, so it can be published. Each call gets its own title and slug. Override any field.
 */
export function publishablePost(categoryId: number, authorId: number | null, overrides: Record<string, unknown> = {}) {
  const n = stamp()
  return fromExample(E0, categoryId, authorId, {
    title: `How to Choose a Static Site Generator, part ${counter}`,
    slug: `choose-static-site-generator-${n}`,
    ...overrides,
  })
}

/** The same for Chinese, on the catalogue's clean example Z0. */
export function publishableZhPost(categoryId: number, authorId: number | null, overrides: Record<string, unknown> = {}) {
  const n = stamp()
  return fromExample(Z0, categoryId, authorId, {
    title: `${Z0.title}（第 ${counter} 篇）`,
    slug: `static-site-generator-guide-${n}`,
    ...overrides,
  })
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
