import { and, asc, eq, gte, lt, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { posts, postSearchState } from '../../db/schema/index.ts'
import { memo } from '../../shared/memo.ts'
import { postPath, type Language } from '../../shared/language.ts'
import { discoverable } from '../posts/visibility.ts'
import { bucketOf, BUCKETS, SEGMENT_POSTS, type Bucket, type Doc, type Manifest } from './shards.ts'

/**
 * The static index's contents, read from one snapshot: a segment's discoverable posts with the
 * weighted tokens the FTS indexer stored for each (`post_search_state.terms`), so rendering a
 * segment reads at most SEGMENT_POSTS small rows and tokenizes nothing.
 */

export interface Segment {
  docs: Doc[]
  buckets: Bucket[]
}

/** The segments of a language that hold a discoverable post. */
export function segmentsOf(db: Queryable, language: Language): number[] {
  return db
    .selectDistinct({ segment: sql<number>`${posts.id} / ${SEGMENT_POSTS}` })
    .from(posts)
    .where(and(discoverable, eq(posts.language, language)))
    .orderBy(sql`1`)
    .all()
    .map((r) => r.segment)
}

export const renderManifest = (db: Queryable, language: Language): string =>
  JSON.stringify({ segments: segmentsOf(db, language) } satisfies Manifest)

function readSegment(db: Queryable, language: Language, segment: number): Segment {
  const rows = db
    .select({
      id: posts.id,
      title: posts.title,
      slug: posts.slug,
      summary: posts.summary,
      publishedAt: posts.publishedAt,
      terms: postSearchState.terms,
    })
    .from(posts)
    .innerJoin(postSearchState, eq(postSearchState.postId, posts.id))
    .where(
      and(discoverable, eq(posts.language, language), gte(posts.id, segment * SEGMENT_POSTS), lt(posts.id, (segment + 1) * SEGMENT_POSTS)),
    )
    .orderBy(asc(posts.id))
    .all()
  const buckets: Bucket[] = Array.from({ length: BUCKETS }, () => ({}))
  for (const row of rows)
    for (const [token, weight] of Object.entries(row.terms)) (buckets[bucketOf(token)]![token] ??= []).push(row.id, weight)
  return {
    docs: rows.map((r): Doc => [r.id, r.title, postPath(language, r.slug), r.summary, (r.publishedAt ?? '').slice(0, 10)]),
    buckets,
  }
}

/** Segments of one render batch, each read once however many of its files the batch holds. */
export function segmentReader(db: Queryable): (language: Language, segment: number) => Segment {
  const read = memo<string, Segment>()
  return (language, segment) => read(`${language}/${segment}`, () => readSegment(db, language, segment))
}

/**
 * A bucket's JSON, its tokens sorted (stable bytes); every bucket of a segment that holds posts
 * exists, even empty, so the script never meets a 404 (a console error in every browser).
 */
export function renderBucket(segment: Segment, bucket: number): string | null {
  if (!segment.docs.length) return null
  const postings = segment.buckets[bucket]!
  return JSON.stringify(
    Object.fromEntries(
      Object.keys(postings)
        .sort()
        .map((t) => [t, postings[t]]),
    ),
  )
}
