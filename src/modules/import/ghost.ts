import { stat } from 'node:fs/promises'
import { emptySeo, ImportFileError, type ImportEntry, type ImportPost, type SourceStatus, type TermRef } from './model.ts'

/** Ghost exports are read whole (JSON): larger files are refused before reading, as hostile or not an export. */
export const MAX_GHOST_BYTES = 256 * 1024 * 1024

type Row = Record<string, unknown>

const STATUS: Record<string, SourceStatus | undefined> = {
  published: 'published',
  draft: 'draft',
  scheduled: 'scheduled',
  sent: 'published',
}

/** A table of the export, each row an object; `where` names it in errors (`db[0].data.posts`). */
function table(data: Row, name: string): Row[] {
  const rows = data[name]
  if (rows === undefined) return []
  if (!Array.isArray(rows)) throw new ImportFileError(`db[0].data.${name}`, 'expected an array')
  rows.forEach((row, i) => {
    if (!row || typeof row !== 'object' || Array.isArray(row)) throw new ImportFileError(`db[0].data.${name}[${i}]`, 'expected an object')
  })
  return rows as Row[]
}

/** A text field of a row: absent or null is '', anything but a string is an error naming it. */
function text(row: Row, field: string, where: string): string {
  const value = row[field]
  if (value === undefined || value === null) return ''
  if (typeof value === 'number') return String(value)
  if (typeof value !== 'string') throw new ImportFileError(`${where}.${field}`, 'expected a string')
  return value
}

const group = (rows: Row[], key: string) => {
  const map = new Map<string, Row[]>()
  for (const row of rows) {
    const id = String(row[key] ?? '')
    map.set(id, [...(map.get(id) ?? []), row])
  }
  for (const list of map.values()) list.sort((a, b) => Number(a.sort_order ?? 0) - Number(b.sort_order ?? 0))
  return map
}

/**
 * Reads a Ghost export (Labs → Export, versions 4 to 6; 2 and 3 read the same): users become
 * authors, public tags tags (the first a post's category), internal `#tags` are dropped, posts
 * carry their `html` (mobiledoc and lexical are Ghost's editor formats; Ghost renders `html` from
 * them) and their `posts_meta` SEO fields. Ghost exports no comments.
 */
export async function* readGhost(file: string): AsyncGenerator<ImportEntry> {
  const size = (await stat(file)).size
  if (size > MAX_GHOST_BYTES) throw new ImportFileError('file', `larger than ${MAX_GHOST_BYTES / 1024 / 1024} MB`)
  let json: unknown
  try {
    json = JSON.parse(await Bun.file(file).text())
  } catch (error) {
    throw new ImportFileError('file', `not JSON (${(error as Error).message})`)
  }
  const db = (json as { db?: unknown })?.db
  const first = Array.isArray(db) ? (db[0] as Row | undefined) : undefined
  const data = first?.data
  if (!data || typeof data !== 'object') throw new ImportFileError('db[0].data', 'missing: not a Ghost export')
  const d = data as Row
  yield { kind: 'site', source: 'ghost', feeds: ['/rss/', '/feed/'] }

  const tags = table(d, 'tags').filter(
    (t) => text(t, 'visibility', 'db[0].data.tags') !== 'internal' && !text(t, 'name', 'db[0].data.tags').startsWith('#'),
  )
  const tagById = new Map<string, TermRef>()
  for (const [i, t] of tags.entries()) {
    const where = `db[0].data.tags[${i}]`
    const value = {
      sourceId: text(t, 'id', where),
      slug: text(t, 'slug', where),
      name: text(t, 'name', where),
      oldPaths: [`/tag/${text(t, 'slug', where)}/`, `/tag/${text(t, 'slug', where)}/rss/`],
    }
    tagById.set(value.sourceId, value)
    yield { kind: 'tag', value }
  }
  for (const [i, u] of table(d, 'users').entries()) {
    const where = `db[0].data.users[${i}]`
    const slug = text(u, 'slug', where)
    yield {
      kind: 'author',
      value: {
        sourceId: text(u, 'id', where),
        slug,
        name: text(u, 'name', where),
        bio: text(u, 'bio', where),
        avatar: text(u, 'profile_image', where),
        oldPaths: [`/author/${slug}/`],
      },
    }
  }
  const postTags = group(table(d, 'posts_tags'), 'post_id')
  const postAuthors = group(table(d, 'posts_authors'), 'post_id')
  const postMeta = new Map(table(d, 'posts_meta').map((m) => [String(m.post_id ?? ''), m]))
  for (const [i, p] of table(d, 'posts').entries()) {
    const where = `db[0].data.posts[${i}]`
    const id = text(p, 'id', where)
    if (!id) throw new ImportFileError(`${where}.id`, 'missing')
    // A members-only post stays out of public view: imported as a draft, like WordPress's private posts.
    const visibility = text(p, 'visibility', where) || 'public'
    const status = visibility === 'public' ? STATUS[text(p, 'status', where)] : 'private'
    const slug = text(p, 'slug', where)
    const published = status === 'published'
    if (!status) continue
    // Ghost 3+ keeps SEO fields in posts_meta; Ghost 2 kept them on the post.
    const meta = postMeta.get(id) ?? p
    const m = (field: string) => text(meta, field, postMeta.has(id) ? `db[0].data.posts_meta(post_id ${id})` : where)
    const seo = {
      ...emptySeo(),
      title: m('meta_title'),
      description: m('meta_description'),
      canonical: text(p, 'canonical_url', where),
      ogTitle: m('og_title') || m('twitter_title'),
      ogDescription: m('og_description') || m('twitter_description'),
      ogImage: m('og_image') || m('twitter_image'),
    }
    const title = text(p, 'title', where)
    const html = text(p, 'html', where)
    if ((text(p, 'type', where) || (p.page ? 'page' : 'post')) === 'page') {
      yield { kind: 'page', value: { sourceId: id, title, slug, status, html, seo, oldPaths: published ? [`/${slug}/`] : [] } }
      continue
    }
    const refs = (postTags.get(id) ?? []).map((r) => tagById.get(String(r.tag_id))).filter((t): t is TermRef => !!t)
    const author = String((postAuthors.get(id) ?? [])[0]?.author_id ?? p.author_id ?? '') || null
    const post: ImportPost = {
      sourceId: id,
      title,
      slug,
      status,
      publishedAt: text(p, 'published_at', where) || null,
      updatedAt: text(p, 'updated_at', where) || null,
      excerpt: text(p, 'custom_excerpt', where),
      cover: text(p, 'feature_image', where),
      coverAlt: m('feature_image_alt'),
      html,
      categories: refs.slice(0, 1),
      tags: refs.slice(1),
      author,
      seo,
      comments: [],
      skippedComments: 0,
      oldPaths: published ? [`/${slug}/`, `/${slug}/amp/`] : [],
      notes: visibility === 'public' ? [] : [`visibility "${visibility}" at the source`],
    }
    yield { kind: 'post', value: post }
  }
}
