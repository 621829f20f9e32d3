import { open, mkdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { randomBytes } from 'node:crypto'
import { matchesIfNoneMatch } from '../../http/conditional.ts'
import { mimeForExt } from './detect.ts'
import { assertValidMediaKey, isValidMediaKey, KEY_HASH_CHARS } from './keys.ts'
import type { MediaStore } from './store.ts'

/** Headers every served media file carries: immutable (keys are content hashes) and never sniffed. */
export const MEDIA_RESPONSE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'public, max-age=31536000, immutable',
  // Defence in depth: even if a browser rendered a file as a document, it could run nothing.
  'Content-Security-Policy': "default-src 'none'; sandbox",
} as const

export interface LocalMediaStore extends MediaStore {
  /** Absolute folder that holds the media: `DATA_DIR/media`. */
  readonly root: string
  /** Serve a key as a Response (GET or HEAD; 304 on a matching If-None-Match; 404 when missing). */
  serve(key: string, request?: Request): Promise<Response>
}

export function createLocalMediaStore(dataDir: string): LocalMediaStore {
  const root = resolve(dataDir, 'media')

  // The key is validated first; resolving and re-checking the prefix is a second fence.
  const pathFor = (key: string): string => {
    const path = resolve(root, assertValidMediaKey(key))
    if (!path.startsWith(root + sep)) throw new Error(`media key escapes the root: ${key}`)
    return path
  }

  const statFile = async (key: string) => {
    if (!isValidMediaKey(key)) return undefined
    try {
      const info = await stat(pathFor(key))
      return info.isFile() ? info : undefined
    } catch (error) {
      if (isNotFound(error)) return undefined
      throw error
    }
  }

  return {
    root,

    async put(key, bytes) {
      const path = pathFor(key)
      const dir = dirname(path)
      await mkdir(dir, { recursive: true })
      // Write a temp file beside the target, flush it, then rename: readers see the old
      // file or the whole new one, never a torn one. Dot-prefixed, so never servable.
      const tmp = join(dir, `.${randomBytes(8).toString('hex')}.tmp`)
      const handle = await open(tmp, 'wx', 0o644)
      try {
        await handle.writeFile(bytes)
        await handle.sync()
      } catch (error) {
        await handle.close()
        await rm(tmp, { force: true })
        throw error
      }
      await handle.close()
      try {
        await rename(tmp, path)
      } catch (error) {
        await rm(tmp, { force: true })
        throw error
      }
    },

    async exists(key) {
      return (await statFile(key)) !== undefined
    },

    async read(key) {
      return (await statFile(key)) ? await Bun.file(pathFor(key)).bytes() : undefined
    },

    async serve(key, request) {
      const ext = key.slice(key.lastIndexOf('.') + 1)
      const mime = mimeForExt(ext)
      const info = mime ? await statFile(key) : undefined
      if (!mime || !info) return notFound()

      const etag = etagFor(key, info.size, info.mtimeMs)
      const headers = { ...MEDIA_RESPONSE_HEADERS, ETag: etag }
      const ifNoneMatch = request?.headers.get('if-none-match')
      if (ifNoneMatch && matchesIfNoneMatch(ifNoneMatch, etag)) {
        return new Response(null, { status: 304, headers })
      }
      const body = request?.method === 'HEAD' ? null : Bun.file(pathFor(key))
      return new Response(body, {
        status: 200,
        headers: { ...headers, 'Content-Type': mime, 'Content-Length': String(info.size) },
      })
    },
  }
}

/**
 * Our keys end in the content hash, which is the best ETag there is: it changes exactly when
 * the bytes do. A key of another shape falls back to size and mtime, as a file server would.
 */
function etagFor(key: string, size: number, mtimeMs: number): string {
  const name = key.slice(key.lastIndexOf('/') + 1)
  const stem = name.slice(0, name.indexOf('.') === -1 ? name.length : name.indexOf('.'))
  if (new RegExp(`^[0-9a-f]{${KEY_HASH_CHARS}}$`).test(stem)) return `"${stem}"`
  return `W/"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`
}

const notFound = (): Response =>
  new Response('Not Found', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  })

const isNotFound = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR')
