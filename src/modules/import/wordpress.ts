import { contentText } from '../seo/content-text.ts'
import {
  emptySeo,
  ImportFileError,
  type ImportComment,
  type ImportEntry,
  type ImportPost,
  type SourceStatus,
  type TermRef,
} from './model.ts'
import { wordpressBody } from './wordpress-body.ts'
import { streamXml } from './xml-stream.ts'

type Fields = Record<string, string>
interface Attachment {
  url: string
  alt: string
}

/** Containers whose leaf elements are collected as fields. */
const CONTAINERS = new Set(['item', 'wp:author', 'wp:category', 'wp:tag', 'wp:comment', 'wp:postmeta', 'wp:commentmeta'])

const STATUS: Record<string, SourceStatus | undefined> = {
  publish: 'published',
  draft: 'draft',
  pending: 'draft',
  'auto-draft': 'draft',
  future: 'scheduled',
  private: 'private',
}

const ZERO_DATE = '0000-00-00 00:00:00'
const gmt = (local: string | undefined, utc: string | undefined): string | null =>
  utc && utc !== ZERO_DATE ? utc : local && local !== ZERO_DATE ? local : null
const pathOf = (url: string): string | null => {
  try {
    return new URL(url).pathname + new URL(url).search
  } catch {
    return null
  }
}

/** A Yoast field without its `%%title%%`-style variables, which only WordPress can fill in. */
const yoast = (value: string | undefined, notes: string[], field: string): string => {
  if (!value) return ''
  if (!value.includes('%%')) return value
  notes.push(`Yoast ${field} uses WordPress variables; left to the autofix`)
  return ''
}

/**
 * Reads a WordPress eXtended RSS export (WXR 1.1/1.2) as import entries (model.ts), in two
 * streamed passes: the first keeps only the attachments (id → URL and alt, for featured images
 * and galleries) and the site's address, the second yields the authors, terms and posts.
 */
export async function* readWordpress(file: string): AsyncGenerator<ImportEntry> {
  const attachments = new Map<string, Attachment>()
  let site = ''
  let version = ''
  {
    let fields: Fields = {}
    let meta: Fields = {}
    let depth = 0
    const pass = streamXml(
      file,
      {
        open(name) {
          if (name === 'item') ((fields = {}), (meta = {}), depth++)
          if (name === 'wp:postmeta') meta.key = meta.value = ''
        },
        close(name, text) {
          if (name === 'wp:wxr_version') version = text.trim()
          else if ((name === 'wp:base_blog_url' || (name === 'link' && !depth)) && !site) site = text.trim()
          else if (name === 'wp:meta_key') meta.key = text
          else if (name === 'wp:meta_value' && meta.key === '_wp_attachment_image_alt') fields.alt = text
          else if (name === 'item') {
            depth--
            if (fields.type === 'attachment' && fields.id && fields.url)
              attachments.set(fields.id, { url: fields.url.trim(), alt: fields.alt ?? '' })
          } else if (depth && name === 'wp:post_type') fields.type = text.trim()
          else if (depth && name === 'wp:post_id') fields.id = text.trim()
          else if (depth && name === 'wp:attachment_url') fields.url = text
        },
      },
      () => [],
    )
    for await (const _ of pass);
  }
  if (!version) throw new ImportFileError('file', 'not a WordPress export: no <wp:wxr_version> in it')
  yield {
    kind: 'site',
    source: `wordpress:${site.replace(/\/+$/, '')}`,
    feeds: ['/feed/', '/feed/rss2/', '/feed/atom/', '/rss/', '/?feed=rss2', '/comments/feed/'],
  }

  const out: ImportEntry[] = []
  const stack: { name: string; fields: Fields; terms: (TermRef & { domain: string })[]; meta: Fields[]; comments: Fields[] }[] = []
  const categoryParents = new Map<string, string>()
  const categoryPath = (nicename: string): string => {
    const chain = [nicename]
    for (let at = categoryParents.get(nicename); at && chain.length < 20 && !chain.includes(at); at = categoryParents.get(at))
      chain.unshift(at)
    return `/category/${chain.join('/')}/`
  }
  const handlers = {
    open(name: string) {
      if (CONTAINERS.has(name)) stack.push({ name, fields: {}, terms: [], meta: [], comments: [] })
    },
    close(name: string, text: string, attributes: Record<string, string>, line: number) {
      const top = stack[stack.length - 1]
      if (top && top.name !== name) {
        if (name === 'category' && top.name === 'item')
          top.terms.push({
            domain: attributes.domain ?? '',
            sourceId: attributes.nicename ?? text,
            slug: attributes.nicename ?? text,
            name: text,
          })
        else top.fields[name] = text
        return
      }
      if (!top) return
      stack.pop()
      const parent = stack[stack.length - 1]
      const f = top.fields
      if (name === 'wp:postmeta' || name === 'wp:commentmeta')
        parent?.meta.push({ key: f['wp:meta_key'] ?? '', value: f['wp:meta_value'] ?? '' })
      else if (name === 'wp:comment') parent?.comments.push(f)
      else if (name === 'wp:author') {
        const login = (f['wp:author_login'] ?? '').trim()
        if (!login) throw new ImportFileError(`line ${line}`, '<wp:author> has no <wp:author_login>')
        out.push({
          kind: 'author',
          value: {
            sourceId: login,
            slug: login,
            name: f['wp:author_display_name'] || login,
            bio: '',
            avatar: '',
            oldPaths: [`/author/${login.toLowerCase()}/`],
          },
        })
      } else if (name === 'wp:category') {
        const nicename = (f['wp:category_nicename'] ?? '').trim()
        if (!nicename) throw new ImportFileError(`line ${line}`, '<wp:category> has no <wp:category_nicename>')
        const parentName = (f['wp:category_parent'] ?? '').trim()
        if (parentName) categoryParents.set(nicename, parentName)
        const paths = [...new Set([`/category/${nicename}/`, categoryPath(nicename)])]
        out.push({
          kind: 'category',
          value: {
            sourceId: nicename,
            slug: nicename,
            name: f['wp:cat_name'] ?? nicename,
            description: f['wp:category_description'] ?? '',
            parent: parentName || null,
            oldPaths: paths,
          },
        })
      } else if (name === 'wp:tag') {
        const slug = (f['wp:tag_slug'] ?? '').trim()
        if (!slug) throw new ImportFileError(`line ${line}`, '<wp:tag> has no <wp:tag_slug>')
        out.push({ kind: 'tag', value: { sourceId: slug, slug, name: f['wp:tag_name'] ?? slug, oldPaths: [`/tag/${slug}/`] } })
      } else if (name === 'item') {
        const entry = itemEntry(top.fields, top.terms, top.meta, top.comments, attachments, line)
        if (entry) out.push(entry)
      }
    },
  }
  yield* streamXml(file, handlers, () => out.splice(0))
}

function commentOf(f: Fields): ImportComment | 'skipped' {
  const approved = (f['wp:comment_approved'] ?? '').trim()
  const type = (f['wp:comment_type'] ?? '').trim()
  if (approved === 'spam' || approved === 'trash' || type === 'pingback' || type === 'trackback') return 'skipped'
  const parent = (f['wp:comment_parent'] ?? '0').trim()
  return {
    sourceId: (f['wp:comment_id'] ?? '').trim(),
    parent: parent && parent !== '0' ? parent : null,
    authorName: f['wp:comment_author'] ?? '',
    authorEmail: f['wp:comment_author_email'] ?? '',
    content: contentText(f['wp:comment_content'] ?? '').trim(),
    status: approved === '1' ? 'approved' : 'pending',
    date: gmt(f['wp:comment_date'], f['wp:comment_date_gmt']),
  }
}

/** The old public paths of a post: its permalink, and the paths WordPress's other permalink structures give it. */
function postPaths(f: Fields, id: string, slug: string, date: string | null, page: boolean): string[] {
  const paths = [page ? `/?page_id=${id}` : `/?p=${id}`]
  const link = pathOf(f.link ?? '')
  if (link) paths.push(link)
  if (slug && !page) {
    paths.push(`/${slug}/`, `/archives/${id}`)
    const d = /^(\d{4})-(\d{2})-(\d{2})/.exec(date ?? '')
    if (d) paths.push(`/${d[1]}/${d[2]}/${d[3]}/${slug}/`, `/${d[1]}/${d[2]}/${slug}/`)
  }
  if (slug && page) paths.push(`/${slug}/`)
  return [...new Set(paths)]
}

function itemEntry(
  f: Fields,
  terms: (TermRef & { domain: string })[],
  meta: Fields[],
  rawComments: Fields[],
  attachments: Map<string, Attachment>,
  line: number,
): ImportEntry | null {
  const type = (f['wp:post_type'] ?? '').trim()
  const id = (f['wp:post_id'] ?? '').trim()
  if (type !== 'post' && type !== 'page') return null
  if (!/^\d{1,20}$/.test(id)) throw new ImportFileError(`line ${line}`, `<wp:post_id> must be a number, got "${id.slice(0, 40)}"`)
  const status = STATUS[(f['wp:status'] ?? '').trim()]
  if (!status) return null // trash, inherit: nothing public, nothing to keep
  const slug = (f['wp:post_name'] ?? '').trim()
  const date = gmt(f['wp:post_date'], f['wp:post_date_gmt'])
  const published = status === 'published'
  const title = f.title ?? ''
  const metaOf = (key: string) => meta.find((m) => m.key === key)?.value
  const notes: string[] = []
  const seo = {
    ...emptySeo(),
    title: yoast(metaOf('_yoast_wpseo_title'), notes, 'title'),
    description: yoast(metaOf('_yoast_wpseo_metadesc'), notes, 'description'),
    canonical: metaOf('_yoast_wpseo_canonical') ?? '',
    noindex: metaOf('_yoast_wpseo_meta-robots-noindex') === '1',
    ogTitle: yoast(metaOf('_yoast_wpseo_opengraph-title'), notes, 'Open Graph title'),
    ogDescription: yoast(metaOf('_yoast_wpseo_opengraph-description'), notes, 'Open Graph description'),
    ogImage: metaOf('_yoast_wpseo_opengraph-image') ?? '',
  }
  const html = wordpressBody(f['content:encoded'] ?? '', (aid) => attachments.get(aid)?.url, notes)
  if (type === 'page')
    return {
      kind: 'page',
      value: { sourceId: id, title, slug, status, html, seo, oldPaths: published ? postPaths(f, id, slug, date, true) : [] },
    }
  const cover = attachments.get((metaOf('_thumbnail_id') ?? '').trim())
  const comments: ImportComment[] = []
  let skippedComments = 0
  for (const raw of rawComments) {
    const c = commentOf(raw)
    if (c === 'skipped') skippedComments++
    else comments.push(c)
  }
  const post: ImportPost = {
    sourceId: id,
    title,
    slug,
    status,
    publishedAt: date,
    updatedAt: gmt(f['wp:post_modified'], f['wp:post_modified_gmt']),
    excerpt: f['excerpt:encoded'] ?? '',
    cover: cover?.url ?? '',
    coverAlt: cover?.alt ?? '',
    html,
    categories: terms.filter((t) => t.domain === 'category'),
    tags: terms.filter((t) => t.domain === 'post_tag'),
    author: (f['dc:creator'] ?? '').trim() || null,
    seo,
    comments,
    skippedComments,
    oldPaths: published ? postPaths(f, id, slug, date, false) : [],
    notes: [...new Set(notes)],
  }
  return { kind: 'post', value: post }
}
