/** What an import did, as `--report FILE.json` writes it and the CLI summarises it (docs/import-export.md). */

export interface Counts {
  created: number
  updated: number
  unchanged: number
}

export interface PostReport {
  sourceId: string
  id: number | null
  title: string
  slug: string
  language: 'en' | 'zh'
  /** What Folio stores: published, draft (a draft at the source, or held back by `--status gate`). */
  status: 'published' | 'draft'
  sourceStatus: string
  seoScore: number
  aeoScore: number
  /** The autofix rules applied on the way in. */
  fixed: string[]
  /** Blocking SEO items still failing: the editor shows them; the next publish goes through the gate. */
  blocking: string[]
  /** What the conversion could not carry (shortcodes, embeds), for a human to look at. */
  notes: string[]
}

export interface ImportReport {
  source: string
  dryRun: boolean
  counts: Record<'posts' | 'pages' | 'categories' | 'tags' | 'authors' | 'comments' | 'redirects', Counts>
  /** Spam and trash comments, never imported. */
  skippedComments: number
  /** Static pages imported as standalone pages (docs/pages.md), changed or new ones only. */
  pages: {
    sourceId: string
    id: number
    title: string
    slug: string
    language: 'en' | 'zh'
    status: 'published' | 'draft'
    notes: string[]
  }[]
  /** Changed or new posts only: an unchanged post of a re-run is counted, not listed. */
  posts: PostReport[]
  rendered: { rendered: number; written: number; removed: number } | null
}

const zero = (): Counts => ({ created: 0, updated: 0, unchanged: 0 })

export const emptyReport = (source: string, dryRun: boolean): ImportReport => ({
  source,
  dryRun,
  counts: { posts: zero(), pages: zero(), categories: zero(), tags: zero(), authors: zero(), comments: zero(), redirects: zero() },
  skippedComments: 0,
  pages: [],
  posts: [],
  rendered: null,
})

/** The CLI's summary: one line per kind, then the posts that still need a human. */
export function summaryOf(report: ImportReport): string {
  const line = (c: Counts) => `${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged`
  const lines = Object.entries(report.counts).map(([kind, c]) => `${kind}: ${line(c)}`)
  const blocked = report.posts.filter((p) => p.blocking.length)
  const noted = report.posts.filter((p) => p.notes.length)
  if (report.skippedComments) lines.push(`comments skipped (spam, trash): ${report.skippedComments}`)
  if (blocked.length) lines.push(`posts with blocking SEO items: ${blocked.length}`)
  if (noted.length) lines.push(`posts with conversion notes: ${noted.length}`)
  if (report.dryRun) lines.push('dry run: nothing was written')
  return lines.join('\n')
}
