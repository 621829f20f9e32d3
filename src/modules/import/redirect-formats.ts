/**
 * The redirect map in the configuration languages of the servers people put in front of Folio
 * (`cli redirects export --format …`). Pure: one line (or block) per redirect, every value quoted
 * or escaped for its format. Paths come from `redirectKey` (lower-case, no trailing slash); a key
 * with a query (`/?p=12`) is matched on the query, which each server spells its own way.
 */

export const REDIRECT_FORMATS = ['caddy', 'nginx', 'netlify', 'csv'] as const
export type RedirectFormat = (typeof REDIRECT_FORMATS)[number]

interface Redirect {
  from: string
  to: string
}

const split = (from: string) => {
  const at = from.indexOf('?')
  if (at === -1) return { path: from, key: '', value: '' }
  const [key, value] = from.slice(at + 1).split('=') as [string, string]
  return { path: from.slice(0, at), key, value }
}
// Paths hold only what redirectKey and the URL parser leave: percent-encoded, no spaces or quotes.
const quoted = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`
const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)
const regexOf = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

function caddy(r: Redirect, n: number): string {
  const { path, key, value } = split(r.from)
  if (!key) return `redir ${quoted(path === '/' ? '/' : `${path}`)} ${quoted(r.to)} 301\nredir ${quoted(`${path}/`)} ${quoted(r.to)} 301`
  return `@old${n} {\n\tpath ${quoted(path)} ${quoted(`${path}/`)}\n\tquery ${key}=${value}\n}\nredir @old${n} ${quoted(r.to)} 301`
}

function nginx(r: Redirect): string {
  const { path, key, value } = split(r.from)
  if (!key) return `location ~* ^${regexOf(path)}/?$ { return 301 ${r.to}; }`
  return `if ($request_uri ~* "^${regexOf(path)}/?\\?(.*&)?${regexOf(key)}=${regexOf(value)}(&|$)") { return 301 ${r.to}; }`
}

function netlify(r: Redirect): string {
  const { path, key, value } = split(r.from)
  return key ? `${path} ${key}=${value} ${r.to} 301!` : `${path} ${r.to} 301!\n${path}/ ${r.to} 301!`
}

/** The whole file: a header naming what it is, then every redirect. */
export function* formatRedirects(format: RedirectFormat, redirects: Iterable<Redirect>): Generator<string> {
  if (format === 'csv') yield 'from,to'
  else yield `# Folio: old URLs of imported sites, 301 to their new home (cli redirects export --format ${format})`
  let n = 0
  for (const r of redirects) {
    n++
    if (format === 'csv') yield `${csvCell(r.from)},${csvCell(r.to)}`
    else if (format === 'caddy') yield caddy(r, n)
    else if (format === 'nginx') yield nginx(r)
    else yield netlify(r)
  }
}
