import type { Database } from 'bun:sqlite'
import { urlPathOf } from '../site/targets.ts'

/**
 * A post or a standalone page (About, Contact) as the open formats (Markdown, WXR) carry it: its
 * fields, a post's terms and comments by name. A page has no summary, cover, terms, author or
 * comments; its navigation order is its `menuOrder` (a post's is 0).
 */
export interface ExportPost {
  type: 'post' | 'page'
  menuOrder: number
  id: number
  language: 'en' | 'zh'
  slug: string
  alternateSlug: string
  title: string
  summary: string
  contentHtml: string
  coverImage: string
  coverAlt: string
  seoTitle: string
  seoDescription: string
  canonicalUrl: string
  robots: string
  status: 'published' | 'draft'
  publishedAt: string | null
  createdAt: string
  updatedAt: string
  category: { slug: string; name: string } | null
  tags: { slug: string; name: string }[]
  author: { slug: string; name: string } | null
  comments: {
    id: number
    parentId: number | null
    authorName: string
    authorEmail: string
    content: string
    approved: boolean
    createdAt: string
  }[]
}

/** The columns posts and pages share, as an export carries them. */
const shared = (r: Record<string, any>) => ({
  id: r.id as number,
  language: r.language as ExportPost['language'],
  slug: r.slug as string,
  alternateSlug: r.alternate_slug as string,
  title: r.title as string,
  contentHtml: r.content_html as string,
  seoTitle: r.seo_title as string,
  seoDescription: r.seo_description as string,
  canonicalUrl: r.canonical_url as string,
  robots: r.robots as string,
  status: r.status === 1 ? ('published' as const) : ('draft' as const),
  publishedAt: r.published_at as string | null,
  createdAt: r.created_at as string,
  updatedAt: r.updated_at as string,
})

/**
 * Every post not deleted, oldest first, read one at a time (memory stays flat): what Markdown and
 * WXR exports write. A post offline (unpublished) is a draft there.
 */
function* sitePosts(sqlite: Database): Generator<ExportPost> {
  const tags = sqlite.prepare(
    `SELECT t.slug, CASE WHEN ? = 'zh' AND t.name_zh != '' THEN t.name_zh ELSE coalesce(nullif(t.name_en, ''), t.slug) END AS name
     FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = ? ORDER BY t.slug`,
  )
  const category = sqlite.prepare(
    `SELECT slug, CASE WHEN ? = 'zh' AND name_zh != '' THEN name_zh ELSE name_en END AS name FROM categories WHERE id = ?`,
  )
  const author = sqlite.prepare('SELECT slug, name FROM authors WHERE id = ?')
  const comments = sqlite.prepare(
    `SELECT id, parent_id AS parentId, author_name AS authorName, author_email AS authorEmail, content, status = 1 AS approved, created_at AS createdAt
     FROM comments WHERE post_id = ? AND status IN (0, 1) ORDER BY id`,
  )
  const rows = sqlite.query(
    `SELECT id, language, slug, alternate_slug, title, summary, content_html, cover_image, cover_alt, seo_title, seo_description,
            canonical_url, robots, status, published_at, created_at, updated_at, category_id, author_id
     FROM posts WHERE deleted_at IS NULL ORDER BY id`,
  )
  for (const r of rows.iterate() as IterableIterator<Record<string, any>>) {
    yield {
      type: 'post',
      menuOrder: 0,
      summary: r.summary,
      coverImage: r.cover_image,
      coverAlt: r.cover_alt,
      ...shared(r),
      category: r.category_id === null ? null : ((category.get(r.language, r.category_id) as ExportPost['category']) ?? null),
      tags: tags.all(r.language, r.id) as ExportPost['tags'],
      author: r.author_id === null ? null : ((author.get(r.author_id) as ExportPost['author']) ?? null),
      comments: (comments.all(r.id) as (Omit<ExportPost['comments'][number], 'approved'> & { approved: number })[]).map((c) => ({
        ...c,
        approved: !!c.approved,
      })),
    }
  }
}

/** Every standalone page, oldest first, in the same shape (docs/pages.md): a page offline is a draft there. */
function* sitePages(sqlite: Database): Generator<ExportPost> {
  const rows = sqlite.query(
    `SELECT id, language, slug, alternate_slug, title, content_html, seo_title, seo_description, canonical_url, robots, status,
            nav_order, published_at, created_at, updated_at
     FROM pages ORDER BY id`,
  )
  for (const r of rows.iterate() as IterableIterator<Record<string, any>>)
    yield {
      type: 'page',
      menuOrder: r.nav_order,
      summary: '',
      coverImage: '',
      coverAlt: '',
      ...shared(r),
      category: null,
      tags: [],
      author: null,
      comments: [],
    }
}

/** How many posts and pages an export wrote. */
export type ItemCounts = Record<ExportPost['type'], number>

/** Every post, then every page, one at a time: what the open formats write. */
export function* siteItems(sqlite: Database): Generator<ExportPost> {
  yield* sitePosts(sqlite)
  yield* sitePages(sqlite)
}

/** The Folio URL path of an exported post or page: what the open formats keep as its old address. */
export const folioPathOf = (post: ExportPost): string =>
  urlPathOf({ kind: post.type === 'page' ? 'page.standalone' : 'page.post', language: post.language, slug: post.slug })
