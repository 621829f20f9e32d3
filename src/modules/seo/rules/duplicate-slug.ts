import { defineRule, fail, NO_LIMITS, pass } from '../rule.ts'
import { slugOwner } from '../suggestions/slug.ts'

export const duplicateSlug = defineRule({
  code: 'duplicate_slug',
  step: 'publish',
  targetField: 'slug',
  weight: 3,
  blocking: true,
  thresholds: NO_LIMITS,
  why: 'Two posts cannot share a URL.',
  fixAction: 'Choose another slug.',
  autoFixType: 'slug',
  judge({ post, world, effectiveSlug }) {
    const owner = slugOwner(effectiveSlug, post, world)
    if (owner) return fail(`Slug "${effectiveSlug}" is already used by post ${owner.id}.`)
    return pass(`Slug "${effectiveSlug}" is free in ${post.language}.`)
  },
})
