import { defineRule, fail, NO_LIMITS, pass } from '../rule.ts'

const NOINDEX = /(?:^|[\s,])noindex(?:$|[\s,])/i

export const noindexWarning = defineRule({
  code: 'noindex_warning',
  step: 'publish',
  targetField: 'indexable',
  weight: 3,
  blocking: false,
  thresholds: NO_LIMITS,
  why: 'No search traffic.',
  fixAction: 'Set indexable unless intended.',
  autoFixType: null,
  judge({ post }) {
    if (!post.indexable || NOINDEX.test(post.robots)) return fail('Post is noindex and will not be discoverable.')
    return pass('Post is indexable.')
  },
})
