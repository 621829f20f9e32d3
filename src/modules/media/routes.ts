import { eq } from 'drizzle-orm'
import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import type { Db } from '../../db/client.ts'
import { media } from '../../db/schema/index.ts'
import { auth } from '../../http/auth.ts'
import { contract } from '../../http/contract.ts'
import type { LocalMediaStore } from './local-store.ts'
import type { MediaIndex, MediaStore } from './store.ts'
import { uploadMedia, type UploadInput } from './upload.ts'
import type { VariantJobs } from './variant-jobs.ts'

/** The upload record in SQLite, so dedupe holds across months. */
export const sqliteMediaIndex = (db: Db): MediaIndex => ({
  keyForHash: (hash) => db.select({ key: media.key }).from(media).where(eq(media.hash, hash)).get()?.key,
  record: (entry) => void db.insert(media).values(entry).onConflictDoNothing().run(),
})

/** The upload verb over this store: the final public URL of the stored image (spec §4.1). */
export const mediaUploader =
  (ctx: Ctx, store: MediaStore, variants: VariantJobs) =>
  async (file: UploadInput): Promise<string> => {
    const deps = {
      store,
      mediaUrl: ctx.config.mediaUrl,
      maxBytes: ctx.config.maxUploadBytes,
      maxPixels: ctx.config.maxImagePixels,
      now: ctx.clock,
      index: sqliteMediaIndex(ctx.db),
      variants: (hash: string) => variants.ensureWithin(hash),
    }
    return (await uploadMedia(deps, file)).url
  }

/** `POST media/upload` (spec §4.1): answers the final public URL, used as-is by clients. */
export const mediaUploadRoutes = (upload: ReturnType<typeof mediaUploader>) =>
  new Elysia({ name: 'media.upload', prefix: '/api/v1/blog/media' }).use(auth).post('/upload', ({ body }) => upload(body.file), {
    body: t.Object({ file: t.File({ description: 'the image (webp, avif, jpeg, png, gif)' }) }),
    scope: 'blog:write',
    ...contract({
      operationId: 'uploadMedia',
      summary: 'Upload an image; answers its final public URL, to be used as it is',
      tag: 'media',
      data: t.String({ format: 'uri' }),
    }),
  })

/**
 * Local media served by the API at MEDIA_URL's path (the embedded default, without Caddy);
 * Caddy serves the same folder directly when it runs.
 */
export function localMediaRoutes(ctx: Ctx, store: LocalMediaStore) {
  const path = new URL(ctx.config.mediaUrl).pathname.replace(/\/+$/, '')
  const serve = ({ params, request }: { params: { '*': string }; request: Request }) => store.serve(params['*'], request)
  return new Elysia({ name: 'media.local' }).get(`${path}/*`, serve).head(`${path}/*`, serve)
}
