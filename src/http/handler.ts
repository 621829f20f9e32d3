/** Anything that answers a request: the app, and each layer wrapped around it (artifacts, CORS, the site). */
export interface Handler {
  handle(request: Request): Promise<Response>
}

/**
 * Public answers that are no artifact read by its own URL (live renders, other spellings of an
 * artifact's read): shared caches may keep them but must revalidate, since no purge names them.
 */
export const PUBLIC_CACHE = 'public, no-cache'
