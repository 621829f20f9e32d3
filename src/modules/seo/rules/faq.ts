import type { FaqBlock } from '../types.ts'
import { comparableText, isBlank, units } from '../text/units.ts'

/** Shared by faq_present and faq_complete, so both count the same complete blocks. */
export const FAQ_LIMITS = { en: { minComplete: 2, minAnswerUnits: 5 }, zh: { minComplete: 2, minAnswerUnits: 10 } }

/**
 * Which FAQ blocks are complete (§4 faq_complete): a question ending in ?/？, an answer of at least
 * `minAnswerUnits`, and a question not asked before. faq_present counts the same blocks.
 */
export function completeFaqBlocks(blocks: readonly FaqBlock[], minAnswerUnits: number): boolean[] {
  const asked = new Set<string>()
  return blocks.map(({ question, answer }) => {
    const key = comparableText(question)
    const repeated = asked.has(key)
    asked.add(key)
    return !isBlank(question) && /[?？]$/.test(question.trim()) && units(answer) >= minAnswerUnits && !repeated
  })
}
