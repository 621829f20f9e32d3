import { rememberingAnalyse } from './context.ts'
import { check } from './engine.ts'
import { generatedCoverAlt } from './suggestions/cover-alt.ts'
import type { AutoFixType, SeoCheckResult, SeoInput, SeoWorld } from './types.ts'

/** The fields each auto-fix writes (seo-rules.md §5 "Auto-fixes"). */
function applyFix(input: SeoInput, fix: AutoFixType, result: SeoCheckResult): Partial<SeoInput> {
  switch (fix) {
    case 'slug':
      return { slug: result.generatedSlug }
    case 'seo_title':
      return { seoTitle: result.generatedSeoTitle }
    case 'seo_description':
      return { seoDescription: result.generatedSeoDescription }
    case 'canonical_self':
      return { canonicalUrl: '' }
    case 'cover_alt':
      return {
        coverAlt: generatedCoverAlt(input.title, input.language, { contentHtml: input.contentHtml, coverImage: input.coverImage ?? '' }),
      }
  }
}

const changes = (input: SeoInput, fields: Partial<SeoInput>): boolean =>
  Object.entries(fields).some(([field, value]) => (input[field as keyof SeoInput] ?? '') !== value)

/** Whether every rule that passed in `before` still passes in `after`. */
function keepsPassing(before: SeoCheckResult, after: SeoCheckResult): boolean {
  const passed = new Map(after.items.map((item) => [item.code, item.passed]))
  return before.items.every((item) => !item.passed || passed.get(item.code))
}

const failingFixes = (result: SeoCheckResult): AutoFixType[] => [
  ...new Set(result.items.flatMap((item) => (item.autoFixType && !item.passed ? [item.autoFixType] : []))),
]

export interface AutofixOutcome {
  /** The post with the fixes applied. */
  input: SeoInput
  /** The fixes that changed it, in the order applied. */
  applied: AutoFixType[]
  /** The check of `input`. */
  result: SeoCheckResult
}

/**
 * Applies the `autoFixType` suggestions of the failed items (docs/agents.md, "Autofix"). A fix is
 * kept only if no rule that passed before it fails after it, so autofix never makes a passing rule
 * fail. Passes repeat until none changes anything, so the outcome is a fixed point: autofix of an
 * autofixed post changes nothing. Each fix writes a value that depends on none of the fields the
 * others write, so at most one pass per fix type applies anything.
 */
export function autofix(input: SeoInput, world: SeoWorld, now: Date): AutofixOutcome {
  // The fixes never touch the body: its analysis is made once for every check below.
  const analysed = rememberingAnalyse()
  let current = input
  let result = check(current, world, now, analysed)
  const applied: AutoFixType[] = []
  for (let changed = true; changed;) {
    changed = false
    for (const fix of failingFixes(result)) {
      const fields = applyFix(current, fix, result)
      if (!changes(current, fields)) continue
      const candidate = { ...current, ...fields }
      const next = check(candidate, world, now, analysed)
      if (!keepsPassing(result, next)) continue
      current = candidate
      result = next
      applied.push(fix)
      changed = true
    }
  }
  return { input: current, applied, result }
}
