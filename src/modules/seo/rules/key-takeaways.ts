import { defineRule, fail, inRange, pass } from '../rule.ts'
import { comparableText, isBlank, units } from '../text/units.ts'

export const keyTakeaways = defineRule({
  code: 'key_takeaways',
  step: 'aeo',
  targetField: 'keyTakeaways',
  weight: 3,
  blocking: false,
  thresholds: { en: { min: 3, max: 7, maxUnits: 30 }, zh: { min: 3, max: 7, maxUnits: 60 } },
  why: 'Lists are easy to extract and skim.',
  fixAction: 'Add takeaways.',
  autoFixType: null,
  judge({ post }, limits) {
    const items = post.keyTakeaways
    const distinct = new Set(items.map(comparableText)).size === items.length
    const short = items.every((item) => !isBlank(item) && units(item) <= limits.maxUnits)
    if (inRange(items.length, limits) && distinct && short) return pass(`${items.length} key takeaways.`)
    return fail(`${items.length} key takeaways; use ${limits.min}–${limits.max} short distinct points.`)
  },
})
