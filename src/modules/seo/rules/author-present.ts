import { defineRule, fail, NO_LIMITS, pass } from '../rule.ts'
import { isBlank } from '../text/units.ts'

const ENABLED = 1

export const authorPresent = defineRule({
  code: 'author_present',
  step: 'aeo',
  targetField: 'authorId',
  weight: 3,
  blocking: false,
  thresholds: NO_LIMITS,
  why: 'Named authors support trust (Person markup).',
  fixAction: 'Link an author.',
  autoFixType: null,
  judge({ post, world }) {
    const { authorId } = post
    if (authorId !== null && world.authorStatus(authorId) === ENABLED) return pass(`Author ${authorId} is enabled.`)
    return fail(`No enabled author profile linked${isBlank(post.author) ? '.' : ' (byline text only).'}`)
  },
})
