import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { folioPathOf, siteItems, type ExportPost, type ItemCounts } from './site-posts.ts'

/**
 * `export --format wxr`: WordPress eXtended RSS 1.2 as WordPress's Tools → Export writes it, for
 * its Tools → Import. Every text goes through one of two escapes: `text` for element text and
 * attributes, `cdata` for bodies (a `]]>` inside is split across two sections); both drop the
 * characters XML 1.0 cannot hold. Written post by post.
 */

// eslint-disable-next-line no-control-regex
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

const text = (value: string | number | null | undefined): string =>
  String(value ?? '')
    .replace(NOT_XML, '')
    .replace(/[&<>"']/g, (c) => ENTITIES[c]!)
const cdata = (value: string | null | undefined): string =>
  `<![CDATA[${String(value ?? '')
    .replace(NOT_XML, '')
    .replaceAll(']]>', ']]]]><![CDATA[>')}]]>`

const rfc822 = (time: string | null) => (time ? new Date(`${time.replace(' ', 'T')}Z`).toUTCString() : '')

/**
 * One `<item>`. WordPress numbers posts and pages in one sequence, so a page's `wp:post_id` is its
 * Folio id past the highest post id (`idBase`): no page takes a post's number in the file.
 */
function item(post: ExportPost, siteUrl: string, idBase: number): string {
  const id = post.id + idBase
  const link = siteUrl + folioPathOf(post)
  const date = post.publishedAt ?? post.createdAt
  const terms = [...(post.category ? [['category', post.category] as const] : []), ...post.tags.map((t) => ['post_tag', t] as const)].map(
    ([domain, t]) => `\t\t<category domain="${domain}" nicename="${text(t.slug)}">${cdata(t.name)}</category>`,
  )
  const meta = [
    ['_yoast_wpseo_title', post.seoTitle],
    ['_yoast_wpseo_metadesc', post.seoDescription],
    ['_yoast_wpseo_canonical', post.canonicalUrl],
    ['_yoast_wpseo_meta-robots-noindex', /noindex/.test(post.robots) ? '1' : ''],
    ['_folio_language', post.language],
    ['_folio_cover_image', post.coverImage],
    ['_folio_cover_alt', post.coverAlt],
  ]
    .filter(([, v]) => v)
    .map(
      ([k, v]) =>
        `\t\t<wp:postmeta>\n\t\t\t<wp:meta_key>${cdata(k)}</wp:meta_key>\n\t\t\t<wp:meta_value>${cdata(v)}</wp:meta_value>\n\t\t</wp:postmeta>`,
    )
  const comments = post.comments.map(
    (c) => `\t\t<wp:comment>
\t\t\t<wp:comment_id>${c.id}</wp:comment_id>
\t\t\t<wp:comment_author>${cdata(c.authorName)}</wp:comment_author>
\t\t\t<wp:comment_author_email>${cdata(c.authorEmail)}</wp:comment_author_email>
\t\t\t<wp:comment_date>${cdata(c.createdAt)}</wp:comment_date>
\t\t\t<wp:comment_date_gmt>${cdata(c.createdAt)}</wp:comment_date_gmt>
\t\t\t<wp:comment_content>${cdata(c.content)}</wp:comment_content>
\t\t\t<wp:comment_approved>${cdata(c.approved ? '1' : '0')}</wp:comment_approved>
\t\t\t<wp:comment_type>${cdata('comment')}</wp:comment_type>
\t\t\t<wp:comment_parent>${c.parentId ?? 0}</wp:comment_parent>
\t\t</wp:comment>`,
  )
  return `\t<item>
\t\t<title>${cdata(post.title)}</title>
\t\t<link>${text(link)}</link>
\t\t<pubDate>${text(rfc822(date))}</pubDate>
\t\t<dc:creator>${cdata(post.author?.slug ?? '')}</dc:creator>
\t\t<guid isPermaLink="false">${text(`${siteUrl}/?${post.type === 'page' ? 'page_id' : 'p'}=${id}`)}</guid>
\t\t<description></description>
\t\t<content:encoded>${cdata(post.contentHtml)}</content:encoded>
\t\t<excerpt:encoded>${cdata(post.summary)}</excerpt:encoded>
\t\t<wp:post_id>${id}</wp:post_id>
\t\t<wp:post_date>${cdata(date)}</wp:post_date>
\t\t<wp:post_date_gmt>${cdata(date)}</wp:post_date_gmt>
\t\t<wp:post_modified>${cdata(post.updatedAt)}</wp:post_modified>
\t\t<wp:post_modified_gmt>${cdata(post.updatedAt)}</wp:post_modified_gmt>
\t\t<wp:comment_status>${cdata(post.type === 'page' ? 'closed' : 'open')}</wp:comment_status>
\t\t<wp:ping_status>${cdata('closed')}</wp:ping_status>
\t\t<wp:post_name>${cdata(post.slug)}</wp:post_name>
\t\t<wp:status>${cdata(post.status === 'published' ? 'publish' : 'draft')}</wp:status>
\t\t<wp:post_parent>0</wp:post_parent>
\t\t<wp:menu_order>${post.menuOrder}</wp:menu_order>
\t\t<wp:post_type>${cdata(post.type)}</wp:post_type>
\t\t<wp:post_password>${cdata('')}</wp:post_password>
\t\t<wp:is_sticky>0</wp:is_sticky>
${[...terms, ...meta, ...comments].join('\n')}
\t</item>
`
}

/** Writes the WXR file (posts, then pages as `post_type` page); returns how many of each it wrote. */
export async function exportWxr(config: Config, db: Db, file: string): Promise<ItemCounts> {
  const sqlite = db.$client
  const out = Bun.file(file).writer()
  const site = config.siteUrl
  out.write(`<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0"
\txmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
\txmlns:content="http://purl.org/rss/1.0/modules/content/"
\txmlns:wfw="http://wellformedweb.org/CommentAPI/"
\txmlns:dc="http://purl.org/dc/elements/1.1/"
\txmlns:wp="http://wordpress.org/export/1.2/"
>
<channel>
\t<title>${text(site)}</title>
\t<link>${text(site)}</link>
\t<description></description>
\t<language>en</language>
\t<wp:wxr_version>1.2</wp:wxr_version>
\t<wp:base_site_url>${text(site)}</wp:base_site_url>
\t<wp:base_blog_url>${text(site)}</wp:base_blog_url>
`)
  for (const a of sqlite.query('SELECT id, slug, name FROM authors ORDER BY id').all() as { id: number; slug: string; name: string }[])
    out.write(
      `\t<wp:author><wp:author_id>${a.id}</wp:author_id><wp:author_login>${cdata(a.slug)}</wp:author_login><wp:author_email>${cdata('')}</wp:author_email><wp:author_display_name>${cdata(a.name)}</wp:author_display_name></wp:author>\n`,
    )
  for (const c of sqlite.query('SELECT id, slug, name_en, description_en FROM categories ORDER BY id').all() as Record<string, any>[])
    out.write(
      `\t<wp:category><wp:term_id>${c.id}</wp:term_id><wp:category_nicename>${cdata(c.slug)}</wp:category_nicename><wp:category_parent>${cdata('')}</wp:category_parent><wp:cat_name>${cdata(c.name_en)}</wp:cat_name><wp:category_description>${cdata(c.description_en)}</wp:category_description></wp:category>\n`,
    )
  for (const t of sqlite
    .query("SELECT id, slug, coalesce(nullif(name_en, ''), name_zh, slug) AS name FROM tags ORDER BY id")
    .all() as Record<string, any>[])
    out.write(
      `\t<wp:tag><wp:term_id>${t.id}</wp:term_id><wp:tag_slug>${cdata(t.slug)}</wp:tag_slug><wp:tag_name>${cdata(t.name)}</wp:tag_name></wp:tag>\n`,
    )
  const count: ItemCounts = { post: 0, page: 0 }
  const { highest } = sqlite.query('SELECT coalesce(max(id), 0) AS highest FROM posts').get() as { highest: number }
  for (const post of siteItems(sqlite)) {
    out.write(item(post, site, post.type === 'page' ? highest : 0))
    count[post.type]++
  }
  out.write('</channel>\n</rss>\n')
  await out.end()
  return count
}
