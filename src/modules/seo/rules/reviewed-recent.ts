import { both, defineRule, fail, pass } from '../rule.ts'

const DAY_MS = 86_400_000
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i

/** `YYYY-MM-DD HH:mm:ss` (UTC, the API's shape) or ISO 8601; a time without a zone is UTC, never server-local. */
export function parseReviewedAt(value: string): Date | null {
  const trimmed = value.trim()
  const match = DATE_TIME.exec(trimmed)
  if (!match) return null
  const iso = trimmed.replace(' ', 'T') + (match[1] === undefined && trimmed.length > 10 ? 'Z' : '')
  const time = Date.parse(iso)
  return Number.isNaN(time) ? null : new Date(time)
}

export const reviewedRecent = defineRule({
  code: 'reviewed_recent',
  step: 'aeo',
  targetField: 'reviewedAt',
  weight: 2,
  blocking: false,
  // One day of slack for the future absorbs clock and time-zone skew between editor and server.
  thresholds: both({ maxAgeDays: 365, maxFutureDays: 1 }),
  why: 'Fresh, dated content gets cited.',
  fixAction: 'Review; set reviewedAt.',
  autoFixType: null,
  judge({ post, now }, limits) {
    const reviewed = parseReviewedAt(post.reviewedAt)
    if (!reviewed) return fail('Not reviewed.')
    const ageMs = now.getTime() - reviewed.getTime()
    if (ageMs < -limits.maxFutureDays * DAY_MS) return fail('Review date is in the future.')
    const days = Math.max(0, Math.floor(ageMs / DAY_MS))
    const message = `Last reviewed ${reviewed.toISOString().slice(0, 10)}, ${days} days ago.`
    return ageMs <= limits.maxAgeDays * DAY_MS ? pass(message) : fail(message)
  },
})
