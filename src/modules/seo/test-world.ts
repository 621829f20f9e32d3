import type { Language } from '../../shared/language.ts'
import type { SeoWorld, WorldPost } from './types.ts'

export interface TestPost {
  id: number
  language: Language
  slug: string
  alternateSlug?: string
  previousSlugs?: readonly string[]
  deleted?: boolean
}

export interface TestWorldData {
  siteUrl?: string
  mediaUrl?: string
  mediaKeys?: readonly string[]
  posts?: readonly TestPost[]
  authors?: readonly { id: number; status: number }[]
  categories?: readonly { id: number; nameEn: string; nameZh: string }[]
}

/** An in-memory SeoWorld from plain arrays, for tests and for callers without a database. */
export function createTestWorld(data: TestWorldData = {}): SeoWorld {
  const live = (data.posts ?? []).filter((post) => !post.deleted)
  const asWorldPost = ({ id, language, slug, alternateSlug }: TestPost): WorldPost => ({
    id,
    language,
    slug,
    alternateSlug: alternateSlug ?? '',
  })
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
  const find = (language: Language, test: (post: TestPost) => boolean) => {
    const post = live.find((candidate) => candidate.language === language && test(candidate))
    return post && asWorldPost(post)
  }
  return {
    siteUrl: data.siteUrl ?? 'https://blog.example.com',
    mediaUrl: data.mediaUrl ?? 'https://blog.example.com/media',
    mediaKeys: new Set(data.mediaKeys ?? []),
    postBySlug: (language, slug) =>
      find(language, (post) => same(post.slug, slug)) ??
      find(language, (post) => (post.previousSlugs ?? []).some((previous) => same(previous, slug))),
    postByCurrentSlug: (language, slug) => find(language, (post) => same(post.slug, slug)),
    authorStatus: (id) => data.authors?.find((author) => author.id === id)?.status,
    category: (id) => {
      const category = data.categories?.find((candidate) => candidate.id === id)
      return category && { nameEn: category.nameEn, nameZh: category.nameZh }
    },
  }
}

/** mulberry32: a seeded PRNG so every failure reproduces. */
export function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
