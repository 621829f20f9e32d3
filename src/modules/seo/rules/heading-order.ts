import { defineRule, fail, NO_LIMITS, notApplicable, pass } from '../rule.ts'

export const headingOrder = defineRule({
  code: 'heading_order',
  step: 'content',
  targetField: 'contentHtml',
  weight: 2,
  blocking: false,
  thresholds: NO_LIMITS,
  why: 'A clean outline feeds readers and the TOC.',
  fixAction: 'Fix heading levels.',
  autoFixType: null,
  judge({ body }) {
    const outline = body.headings.filter((heading) => heading.level >= 2)
    if (outline.length === 0) return notApplicable('no H2–H6 headings.')
    const faults: string[] = []
    let previous = 1
    for (const { level, text } of outline) {
      if (level > previous + 1) faults.push(previous === 1 ? `first heading is h${level}` : `h${previous} → h${level}`)
      if (text === '') faults.push(`empty h${level}`)
      previous = level
    }
    if (faults.length === 0) return pass(`${outline.length} headings in order.`)
    return fail(`Heading levels skip (${faults.join(', ')}).`)
  },
})
