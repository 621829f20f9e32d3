import { sql } from 'drizzle-orm'
import { posts } from '../../db/schema/index.ts'
import { DomainError } from '../../shared/errors.ts'
import type { PostRow } from './repo.ts'

/** `If-Match` (or `version`) named another version than the stored one: nothing changed (docs/agents.md). */
export class VersionConflict extends DomainError {
  constructor(current: Pick<PostRow, 'version' | 'updatedAt'>, expected: number, what = 'post') {
    super(
      'VERSION_CONFLICT',
      412,
      `The ${what} is at version ${current.version}, not ${expected}: it changed since you read it. Read it again, re-apply your edit and send the new version.`,
      { currentVersion: current.version, updatedTime: current.updatedAt },
    )
  }
}

/** Refuses early when the caller expected another version; the conditional UPDATE is the backstop. */
export function expectVersion(row: PostRow, expected: number | null): void {
  if (expected !== null && row.version !== expected) throw new VersionConflict(row, expected)
}

/** The `set` term of every edit or status change: the stored post moves to the next version. */
export const nextVersion = { version: sql`${posts.version} + 1` }
