import { buildContext, type Analyse } from './context.ts'
import type { Rule } from './rule.ts'
import { RULES } from './rules/index.ts'
import { suggest } from './suggestions/index.ts'
import { tocOf } from './toc.ts'
import type { SeoCheckItem, SeoCheckResult, SeoInput, SeoWorld } from './types.ts'

/** Bump whenever a rule, threshold or weight changes: stored scores name the version they were computed with. */
export const SCORE_VERSION = 'folio-seo-1'

const UPPER = new Set(['seo', 'faq', 'h1', 'url'])

/** §3 label: `seo_title_length` → `SEO title length`. */
export function labelOf(code: string): string {
  const words = code.split('_').map((word) => (UPPER.has(word) ? word.toUpperCase() : word))
  const label = words.join(' ')
  return label.charAt(0).toUpperCase() + label.slice(1)
}

export const bandOf = (score: number): 'good' | 'needs work' | 'poor' => (score >= 80 ? 'good' : score >= 50 ? 'needs work' : 'poor')

/** Each rule's label, made once rather than in every check. */
const LABELS = new Map(RULES.map((rule) => [rule.code, labelOf(rule.code)]))

function itemOf(rule: Rule, passed: boolean, message: string, targetField: string | undefined): SeoCheckItem {
  return {
    code: rule.code,
    key: rule.code,
    label: LABELS.get(rule.code)!,
    message,
    why: rule.why,
    fixAction: rule.fixAction,
    passed,
    blocking: rule.blocking,
    severity: passed ? 'pass' : rule.blocking ? 'error' : 'warning',
    weight: rule.weight,
    targetStep: rule.step,
    targetField: targetField ?? rule.targetField,
    autoFixType: passed ? null : rule.autoFixType,
  }
}

/** Codes of the failed blocking items, in catalogue order: `failedItems` of BLOG_SEO_BLOCKED. */
export const failedBlockingCodes = (result: Pick<SeoCheckResult, 'items'>): string[] =>
  result.items.filter((item) => item.blocking && !item.passed).map((item) => item.code)

/** §3 scoreSummary, English; clients localise by code. */
function summaryOf(score: number, aeoScore: number, items: readonly SeoCheckItem[], blocked: readonly string[]): string {
  const passed = items.filter((item) => item.passed).length
  const blocking = blocked.length === 0 ? 'no blocking issues.' : `${blocked.length} blocking: ${blocked.join(', ')}.`
  return `Score ${score}/100 (${bandOf(score)}), AEO ${aeoScore}/100. ${passed} of ${items.length} checks passed; ${blocking}`
}

const weightOf = (items: readonly SeoCheckItem[]): number => items.reduce((sum, item) => sum + item.weight, 0)

/**
 * The SEO/AEO check (seo-rules.md): pure and deterministic for the same input, world and clock;
 * all rules run, in catalogue order. `analysed` may remember the body's analysis between checks.
 */
export function check(input: SeoInput, world: SeoWorld, now: Date, analysed?: Analyse): SeoCheckResult {
  const ctx = buildContext(input, world, now, analysed)
  const items = RULES.map((rule) => {
    const finding = rule.evaluate(ctx)
    return itemOf(rule, finding.passed, finding.message, finding.targetField)
  })
  const passed = items.filter((item) => item.passed)
  const totalWeight = weightOf(items)
  const passedWeight = weightOf(passed)
  const aeo = items.filter((item) => item.targetStep === 'aeo')
  const score = Math.round((100 * passedWeight) / totalWeight)
  const aeoScore = Math.round((100 * weightOf(aeo.filter((item) => item.passed))) / weightOf(aeo))
  const blocked = failedBlockingCodes({ items })
  return {
    score,
    aeoScore,
    scoreVersion: SCORE_VERSION,
    scoreSummary: summaryOf(score, aeoScore, items, blocked),
    totalWeight,
    passedWeight,
    canPublish: blocked.length === 0,
    ...suggest(ctx),
    toc: tocOf(ctx.body),
    items,
  }
}
