import { readCacheNote, writeCacheNote } from './writer.ts'

/**
 * The cache's own records (docs/publishing.md, "Rebuilds"): the fingerprint a rebuild last took of
 * the kinds' inputs (`Survey.inputs`), and a marker, moved by every pass that changes a file,
 * that ties the database to the cache folder it describes.
 */

/** Subjects (in `artifact_subjects`) of the cache's own records. */
export const CACHE_INPUTS = 'cache:inputs'
export const CACHE_MARKER = 'cache:marker'

/** The marker's copy in CACHE_DIR. */
const MARKER_FILE = '.folio-cache-marker'

export const readMarker = (cacheDir: string): string | null => readCacheNote(cacheDir, MARKER_FILE)

export const writeMarker = (cacheDir: string, marker: string): void => writeCacheNote(cacheDir, MARKER_FILE, marker)
