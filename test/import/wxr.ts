/** Small WordPress exports written by the tests: one rich site, and generated ones at any size. */

const HEAD = `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/"
  xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
  <title>Old Blog</title>
  <link>https://old.example</link>
  <wp:wxr_version>1.2</wp:wxr_version>
  <wp:base_site_url>https://old.example</wp:base_site_url>
  <wp:base_blog_url>https://old.example</wp:base_blog_url>
  <wp:author><wp:author_id>1</wp:author_id><wp:author_login><![CDATA[ann]]></wp:author_login><wp:author_display_name><![CDATA[Ann Writer]]></wp:author_display_name></wp:author>
  <wp:category><wp:term_id>2</wp:term_id><wp:category_nicename>guides</wp:category_nicename><wp:category_parent></wp:category_parent><wp:cat_name><![CDATA[Guides]]></wp:cat_name></wp:category>
  <wp:category><wp:term_id>3</wp:term_id><wp:category_nicename>static-sites</wp:category_nicename><wp:category_parent>guides</wp:category_parent><wp:cat_name><![CDATA[Static sites]]></wp:cat_name></wp:category>
  <wp:tag><wp:term_id>4</wp:term_id><wp:tag_slug>caddy</wp:tag_slug><wp:tag_name><![CDATA[Caddy]]></wp:tag_name></wp:tag>
`

const paragraphs = (n: number, seed: string) =>
  Array.from(
    { length: n },
    (_, i) =>
      `Paragraph ${i + 1} about ${seed}: static pages are served straight from disk, so a reader gets the page without waiting for a database, and the writer keeps every old address answering.`,
  ).join('\n\n')

export interface ItemSpec {
  id: number
  slug: string
  title?: string
  status?: string
  type?: string
  date?: string
  body?: string
  extra?: string
}

export function item(spec: ItemSpec): string {
  const date = spec.date ?? '2013-01-11 10:00:00'
  return `<item>
  <title><![CDATA[${spec.title ?? `Post ${spec.id}`}]]></title>
  <link>https://old.example/${date.slice(0, 4)}/${date.slice(5, 7)}/${date.slice(8, 10)}/${spec.slug}/</link>
  <dc:creator><![CDATA[ann]]></dc:creator>
  <content:encoded><![CDATA[${spec.body ?? paragraphs(8, spec.slug)}]]></content:encoded>
  <excerpt:encoded><![CDATA[]]></excerpt:encoded>
  <wp:post_id>${spec.id}</wp:post_id>
  <wp:post_date><![CDATA[${date}]]></wp:post_date>
  <wp:post_date_gmt><![CDATA[${date}]]></wp:post_date_gmt>
  <wp:post_name><![CDATA[${spec.slug}]]></wp:post_name>
  <wp:status><![CDATA[${spec.status ?? 'publish'}]]></wp:status>
  <wp:post_type><![CDATA[${spec.type ?? 'post'}]]></wp:post_type>
  ${spec.extra ?? ''}
</item>
`
}

export const wxr = (items: string) => `${HEAD}${items}</channel>\n</rss>\n`

const comment = (id: number, parent: number, approved: string, text: string) =>
  `<wp:comment><wp:comment_id>${id}</wp:comment_id><wp:comment_author><![CDATA[Reader ${id}]]></wp:comment_author><wp:comment_author_email>r${id}@example.com</wp:comment_author_email><wp:comment_date_gmt>2013-01-12 10:00:0${id}</wp:comment_date_gmt><wp:comment_content><![CDATA[${text}]]></wp:comment_content><wp:comment_approved>${approved}</wp:comment_approved><wp:comment_type></wp:comment_type><wp:comment_parent>${parent}</wp:comment_parent></wp:comment>`

const meta = (key: string, value: string) =>
  `<wp:postmeta><wp:meta_key><![CDATA[${key}]]></wp:meta_key><wp:meta_value><![CDATA[${value}]]></wp:meta_value></wp:postmeta>`

/** A site with one of everything: threaded and moderated comments, shortcodes, Yoast fields, a featured image, a draft, a private post, a page. */
export const RICH_SITE = wxr(
  item({
    id: 10,
    slug: 'hello-static',
    title: 'Hello static sites',
    body: `<!-- wp:paragraph -->\n<p>${paragraphs(8, 'serving')}</p>\n<!-- /wp:paragraph -->\n[caption id="attachment_20" align="alignnone" width="300"]<img src="https://old.example/wp-content/uploads/desk.jpg" alt="A desk" width="300" height="200" /> The desk[/caption]\n\n[gallery ids="20"]\n\n[embed]https://www.youtube.com/watch?v=dQw4w9WgXcQ[/embed]\n\n[contact-form-7 id="5" title="Contact"]\n\nA footnote [sic] stays.`,
    extra: `<category domain="category" nicename="guides"><![CDATA[Guides]]></category><category domain="category" nicename="static-sites"><![CDATA[Static sites]]></category><category domain="post_tag" nicename="caddy"><![CDATA[Caddy]]></category>
  ${meta('_thumbnail_id', '20')}${meta('_yoast_wpseo_title', 'Hello static sites: serving pages from disk')}${meta('_yoast_wpseo_metadesc', 'Why a static-first blog answers every reader from disk, keeps old addresses working and still lets agents publish through an API.')}
  ${comment(1, 0, '1', 'First!<br />Great post.')}${comment(2, 1, '1', 'A reply to the first.')}${comment(3, 0, '0', 'Waiting for moderation.')}${comment(4, 0, 'spam', 'Buy now')}${comment(5, 2, 'trash', 'Trashed reply')}${comment(6, 3, '1', 'Approved under a held comment.')}`,
  }) +
    item({ id: 11, slug: 'a-draft', status: 'draft', date: '2013-02-01 10:00:00' }) +
    item({ id: 12, slug: 'secret', status: 'private', date: '2013-02-02 10:00:00' }) +
    item({ id: 13, slug: 'about', type: 'page', title: 'About' }) +
    `<item><title>desk</title><wp:post_id>20</wp:post_id><wp:post_type>attachment</wp:post_type><wp:status>inherit</wp:status><wp:attachment_url>https://old.example/wp-content/uploads/desk.jpg</wp:attachment_url>${meta('_wp_attachment_image_alt', 'A wooden desk by a window')}</item>\n`,
)

/** `count` published posts with `commentsEach` comments each, for scale and interruption tests. */
export function generatedSite(count: number, commentsEach: number): string {
  const items: string[] = []
  for (let i = 1; i <= count; i++) {
    const comments = Array.from({ length: commentsEach }, (_, c) =>
      comment(c + 1, c > 0 ? c : 0, '1', `Comment ${c + 1} on post ${i}`),
    ).join('')
    const day = String((i % 28) + 1).padStart(2, '0')
    items.push(
      item({ id: i, slug: `generated-post-${i}`, title: `Generated post number ${i}`, date: `2015-03-${day} 08:00:00`, extra: comments }),
    )
  }
  return wxr(items.join(''))
}
