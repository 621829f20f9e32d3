import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { startCaddy, type Caddy } from '../support/caddy.ts'
import { seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'

export interface Stack {
  folio: Folio
  caddy: Caddy
  token: string
  categoryId: number
  authorId: number
  /** An anonymous GET through Caddy. */
  viaCaddy(path: string, headers?: Record<string, string>): Promise<Response>
  /** An anonymous GET straight to the API. */
  viaApi(path: string, headers?: Record<string, string>): Promise<Response>
  dispose(): Promise<void>
}

/** The API (real server, temp data) with a real Caddy in front, a publishing token and a category and author. */
export async function startStack(env: Record<string, string> = {}, caddyPort?: number): Promise<Stack> {
  const folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '1000000', SITE_URL: 'https://blog.example.org', ...env })
  let caddy: Caddy
  try {
    // Caddy reads the CDN settings too (its `{$CDN_MAX_AGE:…}` placeholders), as a deployment sets both.
    const cdn = Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('CDN_') || name === 'CSP_REPORT_URL'))
    caddy = await startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir, port: caddyPort, env: cdn })
  } catch (error) {
    await folio.dispose()
    throw error
  }
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const get =
    (base: () => string) =>
    (path: string, headers: Record<string, string> = {}) =>
      fetch(`${base()}${path}`, { headers, redirect: 'manual' })
  return {
    folio,
    caddy,
    token,
    categoryId,
    authorId,
    viaCaddy: get(() => caddy.url),
    viaApi: get(() => folio.url),
    async dispose() {
      await caddy.stop()
      await folio.dispose()
    },
  }
}

/** Every artifact file under the cache folder with its bytes (the stamp, the render lock and its mark, which come and go, aside). */
export function cacheFiles(cacheDir: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const entry of readdirSync(cacheDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('.folio-')) continue
    const file = join(entry.parentPath, entry.name)
    files.set(relative(cacheDir, file), readFileSync(file).toString('base64'))
  }
  return files
}

export const mtimes = (cacheDir: string, paths: readonly string[]) => paths.map((p) => statSync(join(cacheDir, p)).mtimeMs)

/** True when Caddy answered from disk: the API stamps every answer with X-Request-Id. */
export const fromDisk = (response: Response) => !response.headers.has('x-request-id')
