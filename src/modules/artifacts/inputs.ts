import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import type { Queryable } from '../../db/client.ts'
import { authors, categories, pages, resourceCategories, resources, settings, tags } from '../../db/schema/index.ts'

/**
 * What a rebuild may trust without rendering (docs/publishing.md, "Rebuilds"): fingerprints of
 * the inputs the artifacts were rendered from. A post's fingerprint lives in its subject state
 * (plan.ts); the rest of the site's inputs (the render code, SITE_URL, the shard size and the
 * small tables every page embeds) make one fingerprint for the whole cache (the blog kind's
 * `Survey.inputs`); the engine keeps it beside its cache marker (publishing/marker.ts).
 */

/** A fast 64-bit fingerprint of a JSON value: it only has to tell versions apart, not resist forgery. */
export const fingerprint = (value: unknown): string => Bun.hash(JSON.stringify(value)).toString(36)

const ROOT = resolve(import.meta.dir, '../../..')
const codeVersions = new Map<string, string>()

/**
 * The render code's version: a fingerprint of every source file under `src/` (tests aside) and
 * of the locked dependency versions, so a new release (a template, a presenter, a library)
 * re-renders everything at the next rebuild. Computed once per process.
 */
export function codeVersion(root = ROOT): string {
  const known = codeVersions.get(root)
  if (known) return known
  const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/\.test\.tsx?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort()
  const hasher = new Bun.CryptoHasher('sha256')
  for (const file of [...files, join(root, 'package-lock.json')]) {
    hasher.update(relative(root, file))
    try {
      hasher.update(readFileSync(file))
    } catch {
      hasher.update('-')
    }
  }
  const version = hasher.digest('base64url').slice(0, 22)
  codeVersions.set(root, version)
  return version
}

/** The inputs every artifact may show besides its posts: code, options and the small tables. */
export function siteInputs(db: Queryable, options: { siteUrl: string; sitemapShardSize: number }, code = codeVersion()): string {
  return fingerprint([
    code,
    options.siteUrl,
    options.sitemapShardSize,
    ...[categories, tags, authors, settings, resources, resourceCategories, pages].map((table) => db.select().from(table).all()),
  ])
}
