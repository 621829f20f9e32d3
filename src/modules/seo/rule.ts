import type { Language } from '../../shared/language.ts'
import type { CheckContext } from './context.ts'
import type { AutoFixType, TargetStep } from './types.ts'

/** What a rule found: pass or fail, and the message stating the measured value. */
export interface Finding {
  passed: boolean
  message: string
  /** Overrides the rule's targetField when the fault sits elsewhere (broken_media_url on the cover). */
  targetField?: string
}

/** A rule as the catalogue (§4) defines it; `judge` receives the thresholds of the post's language. */
export interface RuleSpec<Limits> {
  code: string
  step: TargetStep
  targetField: string
  weight: number
  blocking: boolean
  thresholds: Readonly<Record<Language, Limits>>
  why: string
  fixAction: string
  autoFixType: AutoFixType | null
  judge(ctx: CheckContext, limits: Limits): Finding
}

export interface Rule extends Omit<RuleSpec<unknown>, 'judge' | 'thresholds'> {
  thresholds: Readonly<Record<Language, object>>
  evaluate(ctx: CheckContext): Finding
}

export function defineRule<Limits extends object>(spec: RuleSpec<Limits>): Rule {
  const { judge, ...rule } = spec
  return { ...rule, evaluate: (ctx) => judge(ctx, spec.thresholds[ctx.language]) }
}

/** Rules whose limits are the same in both languages. */
export const both = <Limits>(limits: Limits): Record<Language, Limits> => ({ en: limits, zh: limits })
export const NO_LIMITS = both({})

export const pass = (message: string): Finding => ({ passed: true, message })
export const fail = (message: string, targetField?: string): Finding =>
  targetField === undefined ? { passed: false, message } : { passed: false, message, targetField }
/** §1: a rule with nothing to judge passes and says so. */
export const notApplicable = (reason: string): Finding => pass(`Not applicable: ${reason}`)

/** Unit of `u` in messages: English limits are words, Chinese limits characters (§2). */
export const unitName = (language: Language): string => (language === 'en' ? 'words' : 'characters')

export const percent = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((100 * part) / whole))

export interface Range {
  min: number
  max: number
}
export const inRange = (n: number, { min, max }: Range): boolean => n >= min && n <= max
