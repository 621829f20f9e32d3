/**
 * Does WordPress's own importer read Folio's WXR export? `WP_IMPORTER_DIR=<a checkout of
 * WordPress/wordpress-importer> bun scripts/wxr-wordpress-check.ts` (Debian's php, WordPress and
 * MariaDB, installed with apt-get when missing: scripts/wordpress-site.ts).
 *
 * The importer is PHP that nothing here vendors and no registry this project reaches carries, so
 * this is a check run by hand (docs/import-export.md, "WXR and WordPress"), not a test. It imports
 * the test fixtures (a WordPress export and a Ghost export) into a fresh Folio, exports WXR, reads
 * the file with each of the importer's three parsers (SimpleXML, XML, regex: `scripts/wxr-wordpress.php`)
 * and compares what they found with Folio's database: every post's slug, title, status, author,
 * body and terms, every comment's id, parent, approval and text, the authors, categories and tags.
 * Then WordPress itself (Debian's 6.1, a throwaway install) imports the file with the plugin, creating
 * the file's authors as its form would, and the same comparison runs on what WordPress's database
 * holds. It prints one line per reader and exits non-zero on any difference.
 */
import { Database } from 'bun:sqlite'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generatedSite, RICH_SITE } from '../test/import/wxr.ts'
import { startFolio } from '../test/support/folio.ts'
import { ensurePackages, INSTALLER, startWordpress } from './wordpress-site.ts'

interface Found {
  error?: string
  version: string
  authors: string[]
  categories: string[]
  tags: string[]
  posts: {
    type: string
    slug: string
    title: string
    status: string
    author: string
    date_gmt: string
    content: string
    terms: string[]
    comments: [number, number, string, string][]
  }[]
}

/** Prints whether what a reader found agrees with Folio field by field, and the first difference; true when it agrees. */
function report(
  reader: string,
  found: string | Record<string, unknown>,
  expected: Record<string, unknown> & { posts: { slug: string }[] },
): boolean {
  if (typeof found === 'string') {
    console.log(`${reader}: ${found}`)
    return false
  }
  const differences = Object.keys(expected).filter((key) => !Bun.deepEquals(found[key], expected[key]))
  if (!differences.length) {
    const items = expected.posts as unknown as { type?: string; status: string; comments: unknown[] }[]
    const posts = items.filter((p) => p.type !== 'page')
    const counts = ['authors', 'categories', 'tags'].filter((k) => k in expected).map((k) => `${(expected[k] as unknown[]).length} ${k}`)
    console.log(
      `${reader}: ${posts.length} posts (${posts.filter((p) => p.status === 'publish').length} published), ${items.length - posts.length} pages, ${posts.reduce((n, p) => n + p.comments.length, 0)} comments${counts.map((c) => `, ${c}`).join('')}: all as in Folio`,
    )
    return true
  }
  console.log(`${reader}: DIFFERS in ${differences.join(', ')}`)
  const have = (found.posts ?? []) as Record<string, unknown>[]
  const first = expected.posts.findIndex((post, i) => !Bun.deepEquals(have[i], post))
  if (first >= 0) {
    const want = expected.posts[first] as unknown as Record<string, unknown>
    for (const key of Object.keys(want))
      if (!Bun.deepEquals(have[first]?.[key], want[key]))
        console.log(
          `  post ${want.slug}, ${key}: read ${JSON.stringify(have[first]?.[key]).slice(0, 300)}, Folio has ${JSON.stringify(want[key]).slice(0, 300)}`,
        )
  }
  return false
}

const importer = process.env.WP_IMPORTER_DIR
if (!importer) throw new Error('WP_IMPORTER_DIR: the path of a WordPress/wordpress-importer checkout')
ensurePackages()

const fixtures = join(import.meta.dir, '..', 'test', 'fixtures', 'import')
const folio = await startFolio()
const dir = mkdtempSync(join(tmpdir(), 'folio-wxr-'))
const file = join(dir, 'site.xml')
try {
  await Bun.write(join(dir, 'rich.xml'), RICH_SITE)
  await Bun.write(join(dir, 'generated.xml'), generatedSite(200, 3))
  for (const [source, path] of [
    ['wordpress', join(fixtures, 'wordpress-small-export.xml')],
    ['wordpress', join(fixtures, 'wordpress-wxr-utf-8-challenges.xml')],
    ['ghost', join(fixtures, 'ghost-5.json')],
    ['wordpress', join(dir, 'rich.xml')],
    ['wordpress', join(dir, 'generated.xml')],
  ] as const) {
    const out = await folio.cli('import', source, path)
    if (out.code !== 0) throw new Error(`import ${path}: ${out.stderr}`)
  }
  const out = await folio.cli('export', file, '--format', 'wxr')
  if (out.code !== 0) throw new Error(`export: ${out.stderr}`)

  const db = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
  const slugs = (sql: string) => (db.query(sql).all() as { slug: string }[]).map((r) => r.slug)
  // Posts, then pages, as the export writes them; a page has no author, terms or comments.
  const items = (
    db
      .query(
        `SELECT 'post' AS type, p.slug, p.title, p.status, p.content_html AS content, coalesce(p.published_at, p.created_at) AS date,
           coalesce(a.slug, '') AS author,
           (SELECT json_group_array(x) FROM (SELECT 'category:' || c.slug AS x FROM categories c WHERE c.id = p.category_id
              UNION ALL SELECT 'post_tag:' || t.slug FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id)) AS terms,
           (SELECT json_group_array(json_array(m.id, coalesce(m.parent_id, 0), m.status, m.content)) FROM
              (SELECT * FROM comments WHERE post_id = p.id AND status IN (0, 1) ORDER BY id) m) AS comments
         FROM posts p LEFT JOIN authors a ON a.id = p.author_id WHERE p.deleted_at IS NULL
         UNION ALL
         SELECT 'page', slug, title, status, content_html, coalesce(published_at, created_at), '', '[]', '[]' FROM pages`,
      )
      .all() as {
      type: string
      slug: string
      title: string
      status: number
      content: string
      date: string
      author: string
      terms: string
      comments: string
    }[]
  ).map((p) => ({
    type: p.type,
    slug: p.slug,
    title: p.title,
    status: p.status === 1 ? 'publish' : 'draft',
    author: p.author,
    date_gmt: p.date,
    content: p.content,
    terms: (JSON.parse(p.terms) as string[]).sort(),
    comments: (JSON.parse(p.comments) as [number, number, number, string][]).map(([id, parent, status, text]) => [
      id,
      parent,
      status === 1 ? '1' : '0',
      text,
    ]),
  }))
  const expected = {
    version: '1.2',
    authors: slugs('SELECT slug FROM authors ORDER BY id'),
    categories: slugs('SELECT slug FROM categories ORDER BY id'),
    tags: slugs('SELECT slug FROM tags ORDER BY id'),
    posts: items,
  }
  db.close()

  const read = Bun.spawnSync(['php', join(import.meta.dir, 'wxr-wordpress.php'), importer, file])
  if (!read.success) throw new Error(`php: ${read.stderr}`)
  let failed = false
  for (const [parser, result] of Object.entries(JSON.parse(read.stdout.toString()) as Record<string, Found>))
    failed =
      !report(parser, result.error ?? { ...result, posts: result.posts.map((p) => ({ ...p, terms: [...p.terms].sort() })) }, expected) ||
      failed

  // WordPress itself: the importer's whole run (parse, users, terms, posts, comments) into a database.
  const wordpress = await startWordpress(importer)
  try {
    const imported = Bun.spawnSync(['php', join(import.meta.dir, 'wordpress-import.php'), wordpress.dir, file], { cwd: wordpress.dir })
    if (!imported.success) throw new Error(`php: ${imported.stderr}${imported.stdout}`)
    const held = JSON.parse(imported.stdout.toString()) as {
      log: string
      posts: (Found['posts'][number] & { comments: [number, string, string][] })[]
    }
    console.log(`WordPress's importer said: ${held.log.replace(/\s+/g, ' ')}`)
    const inWordpress = {
      posts: expected.posts.map(({ comments, ...post }) => {
        const ids = comments.map(([id]) => id)
        return {
          ...post,
          author: post.author || INSTALLER,
          // WordPress numbers comments itself: a parent is named by its place in the post's list.
          comments: comments.map(([, parent, approved, text]) => [parent ? ids.indexOf(parent) + 1 : 0, approved, text]),
        }
      }),
    }
    failed = !report('WordPress import', { posts: held.posts.map((p) => ({ ...p, terms: [...p.terms].sort() })) }, inWordpress) || failed
  } finally {
    await wordpress.stop()
  }
  process.exitCode = failed ? 1 : 0
} finally {
  await folio.dispose()
}
