import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pythonTool, run } from './tools.ts'

export interface FeedEntryReport {
  id: string
  link?: string
  author: string
  content: string
  tags: string[]
  media: string[]
  /** RSS `enclosure`, Atom `link rel="enclosure"` (feedparser's `enclosures`), JSON Feed `attachments`. */
  enclosures: { href: string; length: string; type: string }[]
}

/** What check_feeds.py says of one feed: feedparser's reading of RSS/Atom, the JSON Feed 1.1 schema's errors. */
export interface FeedReport {
  bozo?: boolean
  error?: string
  version?: string
  title?: string
  link?: string
  author?: string
  errors?: string[]
  entries: FeedEntryReport[]
}

/**
 * Every feed through real parsers in one Python run: feedparser for RSS and Atom, jsonschema with
 * the JSON Feed 1.1 schema for the rest (`.json` names). Keys are the names given.
 */
export async function checkFeeds(feeds: Record<string, string>): Promise<Record<string, FeedReport>> {
  const dir = mkdtempSync(join(tmpdir(), 'folio-feeds-'))
  try {
    const files = Object.entries(feeds).map(([name, text], i) => {
      const file = join(dir, `${i}${name.endsWith('.json') ? '.json' : '.xml'}`)
      writeFileSync(file, text)
      return [name, file] as const
    })
    const out = await run([await pythonTool('python'), join(import.meta.dir, 'check_feeds.py'), ...files.map(([, f]) => f)])
    if (out.code !== 0) throw new Error(`check_feeds.py failed:\n${out.stderr}`)
    const report = JSON.parse(out.stdout) as Record<string, FeedReport>
    return Object.fromEntries(files.map(([name, file]) => [name, report[file]!]))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
