import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Folio } from '../../test/support/folio.ts'
import { seedPublished } from './seed.ts'

/** What a benchmark needs of a seeded site: the first post's slug (the copies add `-copy-<n>`), its category and author. */
export interface SeededSite {
  posts: number
  slug: string
  categoryId: number
  authorId: number
}

const copy = (from: string, to: string) => {
  const cp = Bun.spawnSync(['cp', '-a', '--reflink=auto', from, to])
  if (cp.exitCode !== 0) throw new Error(`cp ${from} ${to}: ${cp.stderr.toString()}`)
}

/**
 * A site made once and reused: a 10,000-post site takes minutes to seed and render, so with
 * `PREPARED=<dir>` the first run keeps its data and cache folders there (as they are right after
 * the rebuild) and later runs start from a copy of them in `scratch` (the phases publish and
 * rebuild, so the kept folders stay as they were made). Without it, a new site every run.
 */
export function preparedSite(dir: string | undefined, posts: number, scratch: string) {
  const dataDir = join(scratch, 'data')
  const cacheDir = join(scratch, 'cache')
  const note = dir ? join(dir, 'seeded.json') : null
  if (dir && note && existsSync(note)) {
    const seeded = JSON.parse(readFileSync(note, 'utf8')) as SeededSite
    if (seeded.posts !== posts) throw new Error(`${dir} holds ${seeded.posts} posts, not ${posts}: give another PREPARED folder`)
    copy(join(dir, 'data'), dataDir)
    copy(join(dir, 'cache'), cacheDir)
    return { dataDir, cacheDir, seeded, keep: () => {} }
  }
  const keep = (seeded: SeededSite) => {
    if (!dir || !note) return
    mkdirSync(dir, { recursive: true })
    copy(dataDir, join(dir, 'data'))
    copy(cacheDir, join(dir, 'cache'))
    writeFileSync(note, JSON.stringify(seeded))
  }
  return { dataDir, cacheDir, seeded: null, keep }
}

/** `posts` published posts (one through the API, the rest cloned) rendered by `cli rebuild` and indexed for search, kept by `keep` while the server is stopped. */
export async function seedSite(folio: Folio, token: string, posts: number, keep: (seeded: SeededSite) => void): Promise<SeededSite> {
  const made = await seedPublished(folio, token, posts)
  const rebuilt = await folio.cli('rebuild')
  if (rebuilt.code !== 0) throw new Error(`rebuild failed: ${rebuilt.stderr}`)
  // The clones have no search rows yet: the server's catch-up indexes them (and re-renders the
  // site's search files) in the background, which a kept site must not leave to every later run.
  for (;;) {
    const health = (await (await fetch(`${folio.url}/healthz`)).json()) as { data: { search: { state: string } } }
    if (health.data.search.state === 'done') break
    if (health.data.search.state === 'failed') throw new Error('the search catch-up failed')
    await Bun.sleep(500)
  }
  await folio.settled()
  const seeded = { posts, slug: made.template.slug, categoryId: made.categoryId, authorId: made.authorId }
  await folio.stop()
  keep(seeded)
  await folio.restart()
  return seeded
}
