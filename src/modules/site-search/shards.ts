/**
 * How the site's static search index is cut (shared by the renderer and the browser script): per
 * language, posts fall into segments of consecutive ids, and within a segment each token's
 * postings into one of BUCKETS files by its first character. A publish re-renders its post's
 * segment only (at most BUCKETS + 2 files, whatever the number of posts); a query fetches, per
 * segment, the one bucket of each of its tokens (docs/search.md has the measured trade-off).
 */
export const SEGMENT_POSTS = 500
export const BUCKETS = 32

export const segmentOf = (postId: number): number => Math.floor(postId / SEGMENT_POSTS)

/** A token's bucket: its first character's, so every token a prefix can match shares the prefix's bucket. */
export const bucketOf = (token: string): number => token.codePointAt(0)! % BUCKETS

/** The index's files, by URL (under `/search/{language}/`, `language` being `en` or `zh`). */
export const INDEX_ROOT = '/search'
export const manifestUrl = (language: string) => `${INDEX_ROOT}/${language}/index.json`
export const docsUrl = (language: string, segment: number) => `${INDEX_ROOT}/${language}/${segment}/docs.json`
export const bucketUrl = (language: string, segment: number, bucket: number) => `${INDEX_ROOT}/${language}/${segment}/${bucket}.json`

/** `index.json`: the segments that hold posts. */
export interface Manifest {
  segments: number[]
}

/** `docs.json`: one entry per post of the segment: id, title, URL path, summary, publication date. */
export type Doc = [id: number, title: string, path: string, summary: string, date: string]

/** A bucket: each token's postings as a flat list of post id, weight, post id, weight… */
export type Bucket = Record<string, number[]>
