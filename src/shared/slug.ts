/** The public slug shape: lower-case ASCII words joined by hyphens (seo-rules.md slug_format). */
export const SLUG_SHAPE = /^[a-z0-9]+(-[a-z0-9]+)*$/

const HAN = /\p{Script=Han}/u

/**
 * pinyin-pro and its dictionary, loaded on the first Han title rather than by every importer of
 * this module (the CLI, the site's URL targets): about 60 ms of CPU (docs/benchmarks.md, "CLI start").
 */
let pinyinPro: typeof import('pinyin-pro') | undefined
const pinyinOf = (text: string): string[] =>
  (pinyinPro ??= import.meta.require('pinyin-pro') as typeof import('pinyin-pro')).pinyin(text, {
    toneType: 'none',
    type: 'array',
    nonZh: 'consecutive',
  })

/**
 * Post slugs the API's fixed paths already answer (`posts/check`, `posts/save`, `posts/operate`,
 * `posts/delete` take precedence over `posts/{slug}`, spec §4.2): a post there could never be read.
 */
export const RESERVED_POST_SLUGS: ReadonlySet<string> = new Set(['check', 'save', 'operate', 'delete'])

/**
 * Readable ASCII slug of a title or name (seo-rules.md §5 generatedSlug step 2): Han characters
 * become toneless pinyin, one syllable a word; NFKD, marks and apostrophes dropped; every run
 * outside [a-z0-9] becomes one hyphen; cut at the last hyphen within `max`.
 */
export function slugOf(text: string, max = 60): string {
  const latin = HAN.test(text) ? pinyinOf(text).join(' ') : text
  const slug = latin
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  if (slug.length <= max) return slug
  const cut = slug.lastIndexOf('-', max)
  return cut > 0 ? slug.slice(0, cut) : slug.slice(0, max)
}

/** `base`, else `base-2`, `base-3`… : the first that `taken` does not claim. */
export function firstFreeSlug(base: string, taken: (slug: string) => boolean): string {
  if (!taken(base)) return base
  for (let n = 2; ; n++) if (!taken(`${base}-${n}`)) return `${base}-${n}`
}
