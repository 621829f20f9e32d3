/**
 * Where uploaded media bytes live. Two adapters: the local disk (served by the app or Caddy)
 * and any S3-compatible object store (served by the bucket itself). Keys are always
 * checked with `isValidMediaKey` before they reach a file system or a bucket.
 */
export interface MediaStore {
  /** Store the bytes under the key with this Content-Type; replaces any earlier object. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>
  /** Whether an object exists under the key; false for a key that is not valid. */
  exists(key: string): Promise<boolean>
  /** The bytes stored under the key, or undefined when there are none (or the key is not valid). */
  read(key: string): Promise<Uint8Array | undefined>
}

/**
 * The caller's record of what was uploaded, by content hash (for example a SQLite table
 * `media(hash primary key, key, content_type, size, created_at)`). It makes dedupe hold
 * across months: the same bytes keep the key of their first upload.
 */
export interface MediaIndex {
  /** The key recorded for this full sha256 hex, if any. */
  keyForHash(hash: string): Promise<string | undefined> | string | undefined
  /** Record a stored upload; must tolerate a second record of the same hash (insert or ignore). */
  record(entry: MediaRecord): Promise<void> | void
}

export interface MediaRecord {
  hash: string
  key: string
  contentType: string
  size: number
}
