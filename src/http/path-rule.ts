/**
 * The one rule on request paths, kept by the API and by Caddy alike (the Caddyfile's
 * `@hostilePath` and `@hostileRawPath` blocks spell the same test): a path whose decoded form
 * holds a dot segment, a backslash, or an encoded slash or backslash (`%2f`, `%5c`) is refused
 * with a 400 before anything is looked up. Such a path names one file to a server that cleans it
 * and another to one that does not, so the two could disagree on what is served and how
 * (docs/security.md, "Paths and media types"). Bun already resolves plain `/../` and `\` as
 * browsers do; what reaches this test is the encoded spelling.
 */
const ENCODED_SEPARATOR = /%(?:2f|5c)/i
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/

/** Null when the raw path (as sent, before decoding) is acceptable, else why it is refused. */
export function pathFault(rawPath: string): string | null {
  if (!rawPath.includes('%') && !rawPath.includes('\\') && !rawPath.includes('/.')) return null
  if (ENCODED_SEPARATOR.test(rawPath)) return 'holds an encoded slash or backslash'
  let decoded: string
  try {
    decoded = decodeURIComponent(rawPath)
  } catch {
    return 'holds a malformed percent-encoding'
  }
  if (decoded.includes('\\')) return 'holds a backslash'
  if (DOT_SEGMENT.test(decoded)) return 'holds a dot segment'
  // Encoded twice (`%252f`): refused too, since another decoder along the way may decode it again.
  if (ENCODED_SEPARATOR.test(decoded)) return 'holds an encoded slash or backslash'
  return null
}

/** Paths whose last segment is a bearer secret: a preview token (docs/agents.md, "Previews"). */
const SECRET_TAIL = /^(\/preview\/|\/api\/v1\/blog\/previews\/)([^/]+)$/

/**
 * The path as the access log writes it: a preview token keeps its post id and expiry (the part
 * before its signature) and loses the signature, so the log never holds a working link.
 */
export function loggedPath(path: string): string {
  const secret = SECRET_TAIL.exec(path)
  if (!secret) return path
  const token = secret[2]!
  const cut = token.lastIndexOf('.')
  return `${secret[1]}${cut > 0 ? token.slice(0, cut + 1) : ''}***`
}
