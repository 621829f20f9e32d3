import { readFileSync } from 'node:fs'
import { contentEtag } from '../../http/conditional.ts'

/**
 * The theme's static files. Each is served under a name carrying a hash of its bytes, so it can
 * be cached for a year (`immutable`) and a new theme is a new URL; pages name the current one.
 */
const load = (name: 'theme' | 'engage' | 'icon', files: string | readonly string[], ext: string) => {
  const text = [files]
    .flat()
    .map((file) => readFileSync(new URL(`./assets/${file}`, import.meta.url), 'utf8'))
    .join('')
  const hash = contentEtag(text)
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 12)
  return { name, text, file: `${name}.${hash}.${ext}` }
}

/**
 * The theme's stylesheet, served as one file: its parts joined in this order, byte for byte (each
 * ends with its last rule's newline). base: tokens, page, header, footer and navigation; article:
 * headings, breadcrumbs, cover, answer, takeaways, contents and the post body; blocks: code
 * highlighting, product cards, FAQ, author box and post cards; reader: paging, claps and comments,
 * the language choice, previous/next and the standalone pages' links.
 */
const THEME = ['base', 'article', 'blocks', 'reader'].map((part) => `theme/${part}.css`)

export const ASSETS = {
  theme: load('theme', THEME, 'css'),
  engage: load('engage', 'engage.js', 'js'),
  /** The favicon of a publication that has set no icon (publication settings `iconUrl`). */
  icon: load('icon', 'icon.svg', 'svg'),
} as const

export type AssetName = keyof typeof ASSETS
