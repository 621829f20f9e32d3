import type { Database } from 'bun:sqlite'

/** A post as the open formats (Markdown, WXR) carry it: its fields, its terms and comments by name. */
export interface ExportPost {
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

/**
 * Every post not deleted, oldest first, read one at a time (memory stays flat): what Markdown and
 * WXR exports write. A post offline (unpublished) is a draft there.
 */
export function* sitePosts(sqlite: Database): Generator<ExportPost> {
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
      id: r.id,
      language: r.language,
      slug: r.slug,
      alternateSlug: r.alternate_slug,
      title: r.title,
      summary: r.summary,
      contentHtml: r.content_html,
      coverImage: r.cover_image,
      coverAlt: r.cover_alt,
      seoTitle: r.seo_title,
      seoDescription: r.seo_description,
      canonicalUrl: r.canonical_url,
      robots: r.robots,
      status: r.status === 1 ? 'published' : 'draft',
      publishedAt: r.published_at,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
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
