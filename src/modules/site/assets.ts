import { readFileSync } from 'node:fs'
import { contentEtag } from '../../http/conditional.ts'

/**
 * The theme's static files. Each is served under a name carrying a hash of its bytes, so it can
 * be cached for a year (`immutable`) and a new theme is a new URL; pages name the current one.
 */
const load = (name: 'theme' | 'engage' | 'icon', file: string, ext: string) => {
  const text = readFileSync(new URL(`./assets/${file}`, import.meta.url), 'utf8')
  const hash = contentEtag(text)
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 12)
  return { name, text, file: `${name}.${hash}.${ext}` }
}

export const ASSETS = {
  theme: load('theme', 'theme.css', 'css'),
  engage: load('engage', 'engage.js', 'js'),
  /** The favicon of a publication that has set no icon (publication settings `iconUrl`). */
  icon: load('icon', 'icon.svg', 'svg'),
} as const

export type AssetName = keyof typeof ASSETS
