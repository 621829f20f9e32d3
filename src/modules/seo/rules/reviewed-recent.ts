import { parseTime } from '../../../shared/time.ts'
import { both, defineRule, fail, pass } from '../rule.ts'

const DAY_MS = 86_400_000
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
    const reviewed = parseTime(post.reviewedAt)
    if (!reviewed) return fail('Not reviewed.')
    const ageMs = now.getTime() - reviewed.getTime()
    if (ageMs < -limits.maxFutureDays * DAY_MS) return fail('Review date is in the future.')
    const days = Math.max(0, Math.floor(ageMs / DAY_MS))
    const message = `Last reviewed ${reviewed.toISOString().slice(0, 10)}, ${days} days ago.`
    return ageMs <= limits.maxAgeDays * DAY_MS ? pass(message) : fail(message)
  },
})
