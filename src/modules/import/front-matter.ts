import { parse as parseToml, TomlError } from 'smol-toml'
import { ImportFileError } from './model.ts'

/** Front matter larger than this is refused: real ones are a few hundred bytes. */
const MAX_FRONT_MATTER = 64 * 1024
/** YAML aliases allowed in one front matter: a "billion laughs" of anchors is refused, not expanded. */
const MAX_ALIASES = 50
const MAX_DEPTH = 16

export type FrontMatter = Record<string, unknown>

export interface MarkdownFile {
  data: FrontMatter
  body: string
}

const FENCES = { '---': 'yaml', '+++': 'toml' } as const

/**
 * Splits a Markdown file into its front matter (YAML between `---` lines, as Jekyll, Astro and
 * Eleventy write it, or TOML between `+++` lines, Hugo's default) and its body. One scan for the
 * closing fence; the parsers run on at most MAX_FRONT_MATTER characters, YAML with its core schema
 * (no custom tags) and a bounded alias count, TOML with a bounded nesting. `where` names the file
 * in errors, with the line for a parse error.
 */
export function splitFrontMatter(text: string, where: string): MarkdownFile {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text
  const fence = source.slice(0, 3) as keyof typeof FENCES
  const format = FENCES[fence]
  const firstBreak = source.indexOf('\n')
  if (!format || firstBreak < 0 || source.slice(3, firstBreak).trim() !== '') return { data: {}, body: source }
  const close = new RegExp(`^${fence.replace(/\+/g, '\\+')}[ \\t]*\\r?$`, 'm')
  close.lastIndex = 0
  const rest = source.slice(firstBreak + 1)
  const end = rest.search(close)
  if (end < 0) throw new ImportFileError(where, `front matter opened with ${fence} is never closed`)
  if (end > MAX_FRONT_MATTER) throw new ImportFileError(where, `front matter larger than ${MAX_FRONT_MATTER / 1024} KB`)
  const raw = rest.slice(0, end)
  const afterFence = rest.indexOf('\n', end)
  const body = afterFence < 0 ? '' : rest.slice(afterFence + 1)
  const data = format === 'yaml' ? readYaml(raw, where) : readToml(raw, where)
  if (data === null || data === undefined) return { data: {}, body }
  if (typeof data !== 'object' || Array.isArray(data)) throw new ImportFileError(where, 'front matter is not a table of fields')
  return { data: data as FrontMatter, body }
}

function readYaml(raw: string, where: string): unknown {
  // yaml (some 70 modules) loads with the first document, not at every start (docs/benchmarks.md, "CLI start").
  const { parseDocument } = import.meta.require('yaml') as typeof import('yaml')
  const doc = parseDocument(raw, { schema: 'core', uniqueKeys: true, prettyErrors: true })
  const [error] = doc.errors
  // The fence is line 1 of the file, so the front matter's line n is the file's n + 1.
  if (error) throw new ImportFileError(`${where}:${(error.linePos?.[0].line ?? 0) + 1}`, `front matter: ${firstLine(error.message)}`)
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIASES })
  } catch (e) {
    throw new ImportFileError(where, `front matter: ${firstLine((e as Error).message)}`)
  }
}

function readToml(raw: string, where: string): unknown {
  try {
    return parseToml(raw, { maxDepth: MAX_DEPTH })
  } catch (e) {
    const line = e instanceof TomlError ? `:${e.line + 1}` : ''
    throw new ImportFileError(`${where}${line}`, `front matter: ${firstLine((e as Error).message)}`)
  }
}

const firstLine = (message: string) => message.split('\n')[0]!.slice(0, 200)

/** A field as text: strings as they are, numbers and dates (TOML's, YAML timestamps) in ISO form. */
export function textField(data: FrontMatter, ...names: string[]): string {
  for (const name of names) {
    const value = data[name]
    if (typeof value === 'string' && value.trim()) return value.trim()
    if (typeof value === 'number') return String(value)
    if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString()
  }
  return ''
}

/** A list field: an array of strings, or one string (Jekyll's space- or comma-separated `tags: a b`). */
export function listField(data: FrontMatter, ...names: string[]): string[] {
  for (const name of names) {
    const value = data[name]
    if (Array.isArray(value))
      return value
        .filter((v) => typeof v === 'string' || typeof v === 'number')
        .map((v) => String(v).trim())
        .filter(Boolean)
    if (typeof value === 'string' && value.trim())
      return value
        .split(value.includes(',') ? ',' : /\s+/)
        .map((v) => v.trim())
        .filter(Boolean)
  }
  return []
}
