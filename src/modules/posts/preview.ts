import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { settings } from '../../db/schema/index.ts'
import { DomainError } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import { PREVIEW_SECONDS, type PostRes, type PreviewReq, type PreviewRes } from './model.ts'
import { toPostRes } from './present.ts'
import { livePost } from './repo.ts'

/** Where anyone holding a preview token reads it (never pre-rendered, never cached). */
export const PREVIEW_PATH = '/api/v1/blog/previews'
/** Where the public site shows a preview as its post page (src/modules/site/preview.ts). */
export const PREVIEW_PAGE_PATH = '/preview'

const SECRET_KEY = 'preview.secret'

/**
 * The server's preview signing key: 32 random bytes made on the first start and kept in the
 * settings table (never served: only the publication keys are public), so tokens survive a
 * restart and every process on the database agrees on them.
 */
export function previewSecret(db: Queryable): string {
  const stored = () => db.select({ value: settings.value }).from(settings).where(eq(settings.key, SECRET_KEY)).get()?.value
  const existing = stored()
  if (existing) return existing
  db.insert(settings)
    .values({ key: SECRET_KEY, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing()
    .run()
  return stored()!
}

const sign = (secret: string, claim: string) => createHmac('sha256', secret).update(`folio-preview:${claim}`).digest('base64url')

/** A refused preview token: the field is `token`, the code says why. */
class PreviewRefused extends DomainError {
  constructor(code: 'PREVIEW_TOKEN_INVALID' | 'PREVIEW_TOKEN_EXPIRED', message: string) {
    super(code, 400, message, { errors: [{ field: 'token', message }] })
  }
}

/**
 * `POST posts/{id}/preview`: a token `<postId>.<expiry, unix seconds>.<HMAC-SHA256>` and its URL.
 * It names no state: whoever holds it reads the post as stored at that moment, until it expires.
 */
export function createPreview(ctx: Ctx, id: number, req: PreviewReq): PreviewRes {
  livePost(ctx.db, id)
  const expires = new Date(ctx.clock().getTime() + (req.expiresIn ?? PREVIEW_SECONDS.default) * 1000)
  const claim = `${id}.${Math.floor(expires.getTime() / 1000)}`
  const token = `${claim}.${sign(previewSecret(ctx.db), claim)}`
  return {
    postId: id,
    token,
    url: `${ctx.config.siteUrl}${PREVIEW_PATH}/${token}`,
    pageUrl: `${ctx.config.siteUrl}${PREVIEW_PAGE_PATH}/${token}`,
    expiresAt: formatTime(expires),
  }
}

/** The post a preview token names, when its signature holds and it has not expired. */
export function previewedPostId(ctx: Ctx, token: string): number {
  const match = /^([1-9]\d{0,15})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token)
  const expected = match ? Buffer.from(sign(previewSecret(ctx.db), `${match[1]}.${match[2]}`)) : null
  if (!match || !expected || !timingSafeEqual(expected, Buffer.from(match[3]!)))
    throw new PreviewRefused('PREVIEW_TOKEN_INVALID', 'not a valid preview token')
  if (Number(match[2]) * 1000 <= ctx.clock().getTime()) throw new PreviewRefused('PREVIEW_TOKEN_EXPIRED', 'the preview token has expired')
  return Number(match[1])
}

/**
 * `GET previews/{token}`: the post's current stored state, draft or not, in the public detail
 * shape. A page renderer shows the same data through this verb.
 */
export const readPreview = (ctx: Ctx, token: string): PostRes => toPostRes(ctx.db, livePost(ctx.db, previewedPostId(ctx, token)))
