import { defineRule, fail, NO_LIMITS, pass } from '../rule.ts'
import { comparableText } from '../text/units.ts'

export const singleH1 = defineRule({
  code: 'single_h1',
  step: 'content',
  targetField: 'contentHtml',
  weight: 3,
  blocking: false,
  thresholds: NO_LIMITS,
  why: 'One H1 states the topic.',
  fixAction: 'Make body H1s H2s.',
  autoFixType: null,
  judge({ body, post }) {
    const h1s = body.headings.filter((heading) => heading.level === 1)
    const [only] = h1s
    if (!only) return pass('Body has no H1; the title is the H1.')
    const repeatsTitle = h1s.length === 1 && body.firstElement === 'h1' && comparableText(only.text) === comparableText(post.title)
    if (repeatsTitle) return pass('Body has 1 H1 heading, the title, first.')
    return fail(`Body has ${h1s.length} H1 heading(s); the title is the H1.`)
  },
})
