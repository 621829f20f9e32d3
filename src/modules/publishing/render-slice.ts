import type { Db } from '../../db/client.ts'
import type { Catalogue } from './catalogue.ts'

/**
 * One path's render: its text, or its UTF-8 bytes when a render thread made them (handed over
 * without a copy: render-pool.ts); null: the artifact must not exist. Or the error.
 */
export type SliceResult = { content: string | Uint8Array | null } | { error: unknown }

/** A render's bytes: made here from its text, or as a render thread handed them over. */
export const bytesOf = (content: string | Uint8Array): Uint8Array => (typeof content === 'string' ? Buffer.from(content) : content)

/**
 * Renders a slice of artifact files from one read snapshot (a deferred transaction: no write
 * lock). The slice is rendered as a batch; should that fail, each path is rendered alone, so one
 * bad artifact fails alone. A path no kind can hold renders to nothing. The same code runs on the
 * render loop's thread (RENDER_WORKERS=0) and on the render threads (render-pool.ts).
 */
export function renderSlice(db: Db, kinds: Catalogue, paths: readonly string[]): SliceResult[] {
  return db.transaction(
    (tx) => {
      const targets = paths.map((path) => kinds.parse(path))
      try {
        const known = targets.filter((t) => t !== null)
        const bytes = kinds.render(tx, known)
        const rendered = new Map(known.map((t, i) => [t, bytes[i]!] as const))
        return targets.map((target): SliceResult => ({ content: target ? rendered.get(target)! : null }))
      } catch {
        return targets.map((target): SliceResult => {
          try {
            return { content: target ? kinds.render(tx, [target])[0]! : null }
          } catch (error) {
            return { error }
          }
        })
      }
    },
    { behavior: 'deferred' },
  )
}
