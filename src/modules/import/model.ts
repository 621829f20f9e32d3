/**
 * What an import carries, whatever the source (WordPress, Ghost, Markdown): plain data the
 * parsers produce and the writer (write.ts) stores. Ids are the source's own, as text.
 */

export type SourceStatus = 'published' | 'draft' | 'scheduled' | 'private'

export interface ImportCategory {
  sourceId: string
  slug: string
  name: string
  description: string
  /** The parent's sourceId; a hierarchy is flattened (docs/import-export.md, "Categories"). */
  parent: string | null
  oldPaths: string[]
}

export interface ImportTag {
  sourceId: string
  slug: string
  name: string
  oldPaths: string[]
}

/** A post's category or tag: the source's id, with enough to create the term when the file never declared it. */
export interface TermRef {
  sourceId: string
  slug: string
  name: string
}

export interface ImportAuthor {
  sourceId: string
  slug: string
  name: string
  bio: string
  avatar: string
  oldPaths: string[]
}

export interface ImportComment {
  sourceId: string
  parent: string | null
  authorName: string
  authorEmail: string
  content: string
  /** Spam and trash never reach the writer. */
  status: 'approved' | 'pending'
  date: string | null
}

export interface ImportSeo {
  title: string
  description: string
  canonical: string
  noindex: boolean
  ogTitle: string
  ogDescription: string
  ogImage: string
}

export interface ImportPost {
  sourceId: string
  title: string
  slug: string
  status: SourceStatus
  /** ISO 8601 or `YYYY-MM-DD HH:mm:ss` (UTC). */
  publishedAt: string | null
  updatedAt: string | null
  excerpt: string
  cover: string
  coverAlt: string
  html: string
  /** Most specific first: the first becomes the post's category, the others tags (docs/import-export.md). */
  categories: TermRef[]
  tags: TermRef[]
  author: string | null
  seo: ImportSeo
  comments: ImportComment[]
  /** Comments the source marked spam or trash: counted, never imported. */
  skippedComments: number
  /** Old public paths of this post at the source (`/2013/01/11/slug/`, `/?p=12`, aliases). */
  oldPaths: string[]
  /** Things the conversion could not carry (an unknown shortcode), for the report. */
  notes: string[]
}

/** A static page (About, Contact): imported as a standalone page (docs/pages.md). */
export interface ImportPage {
  sourceId: string
  title: string
  slug: string
  status: SourceStatus
  html: string
  seo: ImportSeo
  oldPaths: string[]
}

/**
 * One item of a source, in the order the parser reads it: a stream, so a file of any size is held
 * one post at a time. Terms and authors a post names come before it, or are created from its refs.
 */
export type ImportEntry =
  | { kind: 'category'; value: ImportCategory }
  | { kind: 'tag'; value: ImportTag }
  | { kind: 'author'; value: ImportAuthor }
  | { kind: 'post'; value: ImportPost }
  | { kind: 'page'; value: ImportPage }
  /**
   * Always first: `source` names the site in `import_items` (`wordpress:https://old.example`), so
   * two sites imported into one Folio never meet; `feeds` are its feed paths, redirected to Folio's.
   */
  | { kind: 'site'; source: string; feeds: string[] }

export const emptySeo = (): ImportSeo => ({
  title: '',
  description: '',
  canonical: '',
  noindex: false,
  ogTitle: '',
  ogDescription: '',
  ogImage: '',
})

/** A bad source file: one line naming where (line or field), exit 1. */
export class ImportFileError extends Error {
  constructor(where: string, message: string) {
    super(`${where}: ${message}`)
  }
}
