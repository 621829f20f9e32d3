import { eq, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { posts } from '../../db/schema/index.ts'
import { LANGUAGE_PATH, LANGUAGES, otherLanguage, type Language } from '../../shared/language.ts'
import { fingerprint, siteInputs } from '../artifacts/inputs.ts'
import { replaceSubjectStates } from '../publishing/subjects.ts'
import type { ArtifactKind } from '../publishing/kinds.ts'
import { isDiscoverable } from '../posts/visibility.ts'
import { plainHead } from '../site/head.ts'
import { snapshotReads } from '../site/snapshot.ts'
import { siteHeaders } from '../site/serve.ts'
import { htmlDocument } from '../site/templates/layout.tsx'
import { SCRIPT_URL, SearchPageView } from './page.tsx'
import { renderBucket, renderManifest, segmentReader, segmentsOf } from './segments.ts'
import { BUCKETS, bucketUrl, docsUrl, INDEX_ROOT, manifestUrl, SEGMENT_POSTS, segmentOf } from './shards.ts'
import { SEARCH_WORDS } from './words.ts'

/**
 * The site's search as an artifact kind (docs/search.md): the pages `/en/search` and `/cn/search`,
 * the script they load, and the static index under `/search/` (shards.ts), all plain files any
 * static host serves. A post change re-renders its segment's files in both of its languages; the
 * engine writes only the files whose bytes differ.
 */
export type SearchArtifact =
  | { kind: 'search.page'; language: Language }
  | { kind: 'search.script' }
  | { kind: 'search.manifest'; language: Language }
  | { kind: 'search.docs'; language: Language; segment: number }
  | { kind: 'search.bucket'; language: Language; segment: number; bucket: number }

export interface SiteSearchSource {
  siteUrl: string
  /** The bundled browser script (bundle.ts). */
  script: string
}

const pagePath = (language: Language) => `${LANGUAGE_PATH[language]}/search`

function urlOf(a: SearchArtifact): string {
  switch (a.kind) {
    case 'search.page':
      return pagePath(a.language)
    case 'search.script':
      return SCRIPT_URL
    case 'search.manifest':
      return manifestUrl(a.language)
    case 'search.docs':
      return docsUrl(a.language, a.segment)
    case 'search.bucket':
      return bucketUrl(a.language, a.segment, a.bucket)
  }
}

const NUMBER = '(0|[1-9][0-9]{0,8})'
const INDEX_FILE = new RegExp(`^${INDEX_ROOT}/(en|zh)/(?:(index)|${NUMBER}/(?:(docs)|${NUMBER}))\\.json$`)

/** The artifact a URL path names, or null. */
function artifactOfPath(path: string): SearchArtifact | null {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
  for (const language of LANGUAGES) if (trimmed === pagePath(language)) return { kind: 'search.page', language }
  if (trimmed === SCRIPT_URL) return { kind: 'search.script' }
  const m = INDEX_FILE.exec(trimmed)
  if (!m) return null
  const language = m[1] as Language
  if (m[2]) return { kind: 'search.manifest', language }
  const segment = Number(m[3])
  if (m[4]) return { kind: 'search.docs', language, segment }
  const bucket = Number(m[5])
  return bucket < BUCKETS ? { kind: 'search.bucket', language, segment, bucket } : null
}

const fileOf = (a: SearchArtifact) => `${urlOf(a).slice(1)}/@`

const TYPES: Record<SearchArtifact['kind'], string> = {
  'search.page': 'text/html; charset=utf-8',
  'search.script': 'text/javascript; charset=utf-8',
  'search.manifest': 'application/json; charset=utf-8',
  'search.docs': 'application/json; charset=utf-8',
  'search.bucket': 'application/json; charset=utf-8',
}

/** A segment's files in one language: its docs and every bucket, and the manifest that lists it. */
const segmentFiles = (language: Language, segment: number): SearchArtifact[] => [
  { kind: 'search.manifest', language },
  { kind: 'search.docs', language, segment },
  ...Array.from({ length: BUCKETS }, (_, bucket): SearchArtifact => ({ kind: 'search.bucket', language, segment, bucket })),
]

/** The index files (both languages) of the segments holding these posts: what indexing them changed. */
export const segmentFilesOf = (postIds: readonly number[]): string[] => [
  ...new Set(
    [...new Set(postIds.map(segmentOf))].flatMap((segment) => LANGUAGES.flatMap((language) => segmentFiles(language, segment).map(fileOf))),
  ),
]

const pages = (): SearchArtifact[] => LANGUAGES.map((language) => ({ kind: 'search.page', language }))

/** Subjects (`artifact_subjects`) of the index's segments: `search:segment:{language}:{segment}`. */
const SEGMENT_SUBJECT = 'search:segment:'

/** Each segment's state: its discoverable posts' count and revisions (what its files show moves with them). */
function segmentStates(db: Queryable): Map<string, [number, number]> {
  const rows = db
    .select({
      language: posts.language,
      segment: sql<number>`${posts.id} / ${SEGMENT_POSTS}`,
      n: sql<number>`count(*)`,
      revisions: sql<number>`sum(${posts.shownRevision})`,
    })
    .from(posts)
    .where(eq(posts.listed, 1))
    .groupBy(posts.language, sql`2`)
    .all()
  return new Map(rows.map((r) => [`${SEGMENT_SUBJECT}${r.language}:${r.segment}`, [r.n, r.revisions]]))
}

/** A rebuild's look: the segments whose posts moved since the last one (an emptied segment included). */
function surveySegments(tx: Queryable): SearchArtifact[] {
  const differing = replaceSubjectStates(tx, SEGMENT_SUBJECT, segmentStates(tx))
  return [...differing.keys()].flatMap((subject) => {
    const [language, segment] = subject.slice(SEGMENT_SUBJECT.length).split(':')
    return [...pages(), ...segmentFiles(language as Language, Number(segment))]
  })
}

function renderPage(db: Queryable, source: SiteSearchSource, language: Language): string {
  const reads = snapshotReads(db, source.siteUrl)
  const pub = reads.publication(language)
  const url = (l: Language) => `${source.siteUrl}${pagePath(l)}`
  // Indexable, as the one search page of its language: a `?q=` link canonicalizes to it, so no
  // results page is indexed on its own; the two languages' pages are each other's alternates.
  const head = {
    ...plainHead(pub, SEARCH_WORDS[language].title, url(language), false),
    alternates: [...LANGUAGES.map((l) => ({ hreflang: l, href: url(l) })), { hreflang: 'x-default', href: url('en') }],
  }
  const other = otherLanguage(language)
  // The navigation follows the site's (its categories with posts), so a post change plans the pages too.
  const chrome = { pub, nav: reads.nav(), switchTo: { language: other, href: pagePath(other) } }
  return htmlDocument(<SearchPageView head={head} chrome={chrome} language={language} />)
}

export function siteSearchArtifacts(source: SiteSearchSource): ArtifactKind<SearchArtifact> {
  return {
    name: 'search',
    tops: [INDEX_ROOT.slice(1), ...LANGUAGES.map((l) => LANGUAGE_PATH[l].slice(1))],
    parse: (file) => (file.endsWith('/@') ? artifactOfPath(`/${file.slice(0, -2)}`) : null),
    file: fileOf,
    canonical(url) {
      const artifact = artifactOfPath(url.pathname)
      return artifact && fileOf(artifact)
    },
    contentType(file) {
      const artifact = file.endsWith('/@') ? artifactOfPath(`/${file.slice(0, -2)}`) : null
      return artifact && TYPES[artifact.kind]
    },
    headers: siteHeaders,
    effect: () => null,
    plan(_tx, change) {
      if (change.kind === 'post') {
        // The index and the pages' navigation hold discoverable posts only: a draft's saves change neither.
        if (!isDiscoverable(change.after) && !(change.before && isDiscoverable(change.before))) return []
        const languages = new Set([change.after.language, ...(change.before ? [change.before.language] : [])])
        return [...pages(), ...[...languages].flatMap((language) => segmentFiles(language, segmentOf(change.after.id)))]
      }
      return change.kind === 'settings' || change.kind === 'category' ? pages() : []
    },
    widens: () => false,
    every: (db) => [
      { kind: 'search.script' },
      ...pages(),
      ...LANGUAGES.flatMap((language) => [
        { kind: 'search.manifest', language } as const,
        ...segmentsOf(db, language).flatMap((segment) => segmentFiles(language, segment).slice(1)),
      ]),
    ],
    survey(tx) {
      const moved = surveySegments(tx)
      return { inputs: siteInputs(tx, { siteUrl: source.siteUrl, sitemapShardSize: 0 }), moved: () => moved, first: () => [] }
    },
    stamp: () => ({ siteUrl: source.siteUrl, script: fingerprint(source.script) }),
    render(db, artifacts) {
      const segment = segmentReader(db)
      return artifacts.map((a) => {
        switch (a.kind) {
          case 'search.page':
            return renderPage(db, source, a.language)
          case 'search.script':
            return source.script
          case 'search.manifest':
            return renderManifest(db, a.language)
          case 'search.docs': {
            const docs = segment(a.language, a.segment).docs
            return docs.length ? JSON.stringify(docs) : null
          }
          case 'search.bucket':
            return renderBucket(segment(a.language, a.segment), a.bucket)
        }
      })
    },
  }
}
