import { existsSync } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { slugOf } from '../../shared/slug.ts'
import { parseTime } from '../../shared/time.ts'
import { listField, splitFrontMatter, textField, type FrontMatter } from './front-matter.ts'
import { markdownBody } from './markdown-body.ts'
import { emptySeo, ImportFileError, type ImportEntry, type ImportPost, type TermRef } from './model.ts'

/** Per file and per folder: a Markdown file over this is refused as hostile or not a post. */
const MAX_MARKDOWN_BYTES = 4 * 1024 * 1024
const MAX_FILES = 100_000
const MAX_DEPTH = 24
const SKIPPED_DIRS = new Set(['node_modules', '_site', 'public', 'dist', '_includes', '_layouts', '_data', 'resources'])

type Generator = 'hugo' | 'jekyll' | 'astro' | 'eleventy' | 'markdown'

/** Which generator keeps this folder, by its configuration file; a bare folder of files reads like Eleventy's. */
function generatorOf(dir: string): Generator {
  const has = (...names: string[]) => names.some((n) => existsSync(join(dir, n)))
  if (has('hugo.toml', 'hugo.yaml', 'hugo.json', 'config.toml')) return 'hugo'
  if (has('_config.yml', '_config.yaml', '_posts')) return 'jekyll'
  if (has('astro.config.mjs', 'astro.config.ts', 'astro.config.js')) return 'astro'
  if (has('.eleventy.js', 'eleventy.config.js', 'eleventy.config.mjs', 'eleventy.config.cjs')) return 'eleventy'
  return 'markdown'
}

/** Where the content lives and each generator's feed paths (redirected to Folio's feed). */
const LAYOUT: Record<Generator, { roots: string[]; feeds: string[] }> = {
  hugo: { roots: ['content'], feeds: ['/index.xml', '/posts/index.xml', '/feed.xml'] },
  jekyll: { roots: ['.'], feeds: ['/feed.xml', '/atom.xml'] },
  astro: { roots: ['src/content', 'src/pages'], feeds: ['/rss.xml'] },
  eleventy: { roots: ['.'], feeds: ['/feed/feed.xml', '/feed.xml'] },
  markdown: { roots: ['.'], feeds: [] },
}

/** Every Markdown file under `root`, in a stable order; symbolic links and dot-folders are not followed. */
async function* markdownFiles(root: string, depth = 0): AsyncGenerator<string> {
  if (depth > MAX_DEPTH) throw new ImportFileError(root, `folders nested deeper than ${MAX_DEPTH}`)
  const entries = (await readdir(root, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue
    const path = join(root, entry.name)
    if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) yield* markdownFiles(path, depth + 1)
    else if (entry.isFile() && /\.(md|markdown)$/i.test(entry.name)) yield path
  }
}

const JEKYLL_NAME = /^(\d{4})-(\d{2})-(\d{2})-(.+)$/

/** A file's place in the site: its name's slug, date (Jekyll) and whether it is a post or a static page. */
interface Placement {
  kind: 'post' | 'page' | 'skip'
  /** The file's own slug part: `hello` for `posts/hello.md`, `posts/hello/index.md`, `_posts/2020-01-02-hello.md`. */
  name: string
  /** The folders between the content root and the file (`posts`), for the generator's default path. */
  section: string
  date: string | null
  draft: boolean
}

function placementOf(generator: Generator, root: string, rootName: string, path: string): Placement {
  const rel = relative(root, path).split(sep)
  const file = rel.pop()!.replace(/\.(md|markdown)$/i, '')
  // A page bundle (`posts/hello/index.md`) is named by its folder; a section list (`_index.md`) is not a post.
  if (file === '_index') return { kind: 'skip', name: '', section: '', date: null, draft: false }
  const name = file === 'index' && rel.length ? rel.pop()! : file
  if (generator === 'jekyll') {
    const at = rel.findIndex((part) => part === '_posts' || part === '_drafts')
    if (at < 0)
      return { kind: rel.some((p) => p.startsWith('_')) ? 'skip' : 'page', name, section: rel.join('/'), date: null, draft: false }
    const dated = JEKYLL_NAME.exec(name)
    const draft = rel[at] === '_drafts'
    return { kind: 'post', name: dated ? dated[4]! : name, section: '', date: dated ? `${dated[1]}-${dated[2]}-${dated[3]}` : null, draft }
  }
  // Astro's src/pages are routes (pages); everywhere else a file at the root is a page, one in a folder a post.
  const kind = (generator === 'astro' && rootName === 'src/pages') || rel.length === 0 ? 'page' : 'post'
  return { kind, name, section: rel.join('/'), date: null, draft: false }
}

/** A date as the generators read it: ISO 8601, or what JavaScript's Date takes (Astro's `z.coerce.date()`, `Jul 08 2022`). */
function dateOf(text: string): string {
  if (!text || parseTime(text)) return text
  const time = Date.parse(text)
  return Number.isNaN(time) ? text : new Date(time).toISOString()
}

const ymd = (iso: string) => /^(\d{4})-(\d{2})-(\d{2})/.exec(iso)?.slice(1) ?? null

/** The path the generator gave this file by default (docs/import-export.md, "Markdown"). */
function defaultPath(generator: Generator, place: Placement, slug: string, date: string, categories: string[]): string | null {
  if (generator === 'jekyll') {
    const d = ymd(date)
    if (place.kind !== 'post') return `/${[place.section, place.name].filter(Boolean).join('/')}.html`
    if (!d) return null
    const cats = categories.map((c) => c.toLowerCase().replace(/\s+/g, '-'))
    return `/${[...cats, ...d, `${place.name}.html`].join('/')}`
  }
  // Hugo's `slug` replaces the file's name; Astro and Eleventy route by the file's path.
  const last = generator === 'hugo' ? slug : place.name
  const section = place.section
  if (last === 'index' && !section) return null
  return `/${[section, last === 'index' ? '' : last].filter(Boolean).join('/')}/`
}

const termRefs = (names: string[]): TermRef[] =>
  names.slice(0, 50).map((name) => ({ sourceId: slugOf(name) || name, slug: slugOf(name), name }))

/** `cover: {image, alt}` (Hugo themes), `image`, `images: [..]`, `heroImage` (Astro), `cover_image`… */
function coverOf(data: FrontMatter): { url: string; alt: string } {
  const cover = data.cover
  if (cover && typeof cover === 'object' && !Array.isArray(cover)) {
    const c = cover as FrontMatter
    return { url: textField(c, 'image', 'src', 'url'), alt: textField(c, 'alt', 'caption') }
  }
  const image = data.image
  if (image && typeof image === 'object' && !Array.isArray(image)) {
    const c = image as FrontMatter
    return { url: textField(c, 'src', 'url', 'path'), alt: textField(c, 'alt') }
  }
  const url =
    textField(data, 'cover', 'image', 'heroImage', 'cover_image', 'coverImage', 'featured_image', 'feature_image', 'thumbnail') ||
    listField(data, 'images')[0] ||
    ''
  return { url, alt: textField(data, 'coverAlt', 'cover_alt', 'image_alt', 'imageAlt', 'heroImageAlt') }
}

function authorOf(data: FrontMatter): string {
  const value = data.author ?? (Array.isArray(data.authors) ? data.authors[0] : data.authors)
  if (typeof value === 'string') return value.trim()
  if (value && typeof value === 'object') return textField(value as FrontMatter, 'name', 'title')
  return ''
}

/**
 * Reads a folder of Markdown files as Hugo, Jekyll, Astro and Eleventy keep them: front matter
 * (YAML or TOML, front-matter.ts) gives title, date, draft, slug, tags, categories, summary,
 * cover and aliases; bodies go through Folio's Markdown path (markdown-body.ts). Each post's old
 * paths are its generator's default path (or its `url`/`permalink`) and its `aliases`.
 */
export async function* readMarkdown(dir: string): AsyncGenerator<ImportEntry> {
  const folder = await lstat(dir).catch(() => null)
  if (!folder?.isDirectory()) throw new ImportFileError(dir, 'not a folder')
  const generator = generatorOf(dir)
  const layout = LAYOUT[generator]
  yield { kind: 'site', source: `markdown:${generator}`, feeds: layout.feeds }
  const authors = new Set<string>()
  const terms = new Set<string>()
  let files = 0
  for (const rootName of layout.roots) {
    const root = join(dir, rootName)
    if (!existsSync(root)) continue
    for await (const path of markdownFiles(root)) {
      if (++files > MAX_FILES) throw new ImportFileError(dir, `more than ${MAX_FILES} Markdown files`)
      const where = relative(dir, path)
      const place = placementOf(generator, root, rootName, path)
      if (place.kind === 'skip') continue
      const size = (await lstat(path)).size
      if (size > MAX_MARKDOWN_BYTES) throw new ImportFileError(where, `larger than ${MAX_MARKDOWN_BYTES / 1024 / 1024} MB`)
      const { data, body } = splitFrontMatter(await Bun.file(path).text(), where)
      const title = textField(data, 'title')
      const slug = slugOf(textField(data, 'slug')) || place.name
      const date = dateOf(textField(data, 'date', 'publishDate', 'pubDate', 'pubDatetime', 'published')) || place.date || ''
      const categories = listField(data, 'categories', 'category')
      const permalink = data.permalink === false ? null : textField(data, 'url', 'permalink')
      const published = data.draft !== true && data.published !== false && !place.draft
      const oldPaths = published
        ? [permalink || defaultPath(generator, place, slug, date, categories), ...listField(data, 'aliases', 'redirect_from')]
        : []
      const paths = oldPaths.filter((p): p is string => !!p && p.startsWith('/'))
      const notes: string[] = []
      const html = markdownBody(body, notes)
      const seo = {
        ...emptySeo(),
        title: textField(data, 'seoTitle', 'seo_title', 'metaTitle', 'meta_title'),
        description: textField(data, 'description'),
        canonical: textField(data, 'canonical', 'canonicalURL', 'canonical_url', 'canonicalUrl'),
        noindex: data.noindex === true || /noindex/i.test(textField(data, 'robots')),
      }
      if (place.kind === 'page' || data.layout === 'page' || data.type === 'page') {
        const status = published ? 'published' : 'draft'
        yield { kind: 'page', value: { sourceId: where.split(sep).join('/'), title, slug, status, html, seo, oldPaths: paths } }
        continue
      }
      const author = authorOf(data)
      if (author && !authors.has(author)) {
        authors.add(author)
        yield { kind: 'author', value: { sourceId: author, slug: slugOf(author), name: author, bio: '', avatar: '', oldPaths: [] } }
      }
      const tagRefs = termRefs(listField(data, 'tags', 'keywords'))
      const categoryRefs = termRefs(categories)
      for (const [kind, refs, prefix] of [
        ['category', categoryRefs, '/categories/'],
        ['tag', tagRefs, '/tags/'],
      ] as const)
        for (const ref of refs)
          if (!terms.has(`${kind}:${ref.sourceId}`)) {
            terms.add(`${kind}:${ref.sourceId}`)
            const oldPaths = generator === 'hugo' || kind === 'tag' ? [`${prefix}${ref.slug}/`] : []
            yield kind === 'category'
              ? { kind, value: { ...ref, description: '', parent: null, oldPaths } }
              : { kind, value: { ...ref, oldPaths } }
          }
      const cover = coverOf(data)
      const post: ImportPost = {
        sourceId: where.split(sep).join('/'),
        title,
        slug,
        status: published ? 'published' : 'draft',
        publishedAt: date || null,
        updatedAt: dateOf(textField(data, 'lastmod', 'updated', 'updatedDate', 'modDatetime', 'last_modified_at')) || null,
        excerpt: textField(data, 'summary', 'description', 'excerpt'),
        cover: cover.url,
        coverAlt: cover.alt,
        html,
        categories: categoryRefs,
        tags: tagRefs,
        author: author || null,
        seo,
        comments: [],
        skippedComments: 0,
        oldPaths: paths,
        notes,
      }
      yield { kind: 'post', value: post }
    }
  }
}
