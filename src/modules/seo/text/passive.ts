import type { Language } from '../../../shared/language.ts'

const IRREGULAR =
  'known|done|made|given|taken|seen|written|built|found|shown|sent|told|kept|held|paid|sold|chosen|broken|spoken|driven|hidden|forgotten'
/** A form of "be"/"get", an optional -ly adverb, then a participle (§4 Passive, en). */
const EN_PASSIVE = new RegExp(
  `\\b(?:am|is|are|was|were|be|been|being|get|gets|got|gotten)\\s+(?:[a-z]+ly\\s+)?(?:[a-z]+ed|${IRREGULAR})\\b`,
  'i',
)
/** 被 marks the passive, except in 被子/被褥 (quilt, bedding). */
const ZH_PASSIVE = /被(?![子褥])/

export function isPassive(sentence: string, language: Language): boolean {
  return (language === 'zh' ? ZH_PASSIVE : EN_PASSIVE).test(sentence)
}
