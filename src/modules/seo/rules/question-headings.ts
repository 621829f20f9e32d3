import { defineRule, fail, NO_LIMITS, pass } from '../rule.ts'

const ENDS_AS_QUESTION = /[?？]$/
const QUESTION_WORD = /^(?:what|why|how|when|where|which|who|can|should|does|do|is|are|will) /i
const CHINESE_QUESTION = /什么|为什么|如何|怎么|怎样|哪|吗|是否|多少|能否/

/** Question-shaped in either language: a post in one language often quotes the other's headings. */
export const isQuestion = (heading: string): boolean =>
  ENDS_AS_QUESTION.test(heading) || QUESTION_WORD.test(heading) || CHINESE_QUESTION.test(heading)

export const questionHeadings = defineRule({
  code: 'question_headings',
  step: 'aeo',
  targetField: 'contentHtml',
  weight: 2,
  blocking: false,
  thresholds: NO_LIMITS,
  why: 'Question headings map sections to queries.',
  fixAction: "Phrase a heading as the reader's question.",
  autoFixType: null,
  judge({ body }) {
    const n = body.headings.filter(({ level, text }) => (level === 2 || level === 3) && isQuestion(text)).length
    return n > 0 ? pass(`${n} question-shaped H2/H3.`) : fail('No question-shaped H2/H3.')
  },
})
