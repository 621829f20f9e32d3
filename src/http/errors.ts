import type { ValidationError } from 'elysia'
import type { FieldError } from '../shared/errors.ts'

interface TypeboxIssue {
  path: string
  message: string
  /** For a union: one iterator of errors per variant. */
  errors?: Iterable<TypeboxIssue>[]
  schema?: { anyOf?: Array<{ type?: string; const?: unknown }>; type?: string; description?: string }
  value?: unknown
}

/** `/faqBlocks/0/question` → `faqBlocks.0.question`; the whole body or query has no path. */
const fieldOf = (path: string, fallback: string): string => path.replace(/^\//, '').replace(/\//g, '.') || fallback

function describe(issue: TypeboxIssue): string {
  if (issue.schema?.description) return `expected ${issue.schema.description}`
  const variants = issue.schema?.anyOf
  if (variants && /union/i.test(issue.message)) {
    const expected = variants.map((v) => (v.const !== undefined ? JSON.stringify(v.const) : (v.type ?? 'value')))
    return `expected ${[...new Set(expected)].join(' or ')}`
  }
  return issue.message.charAt(0).toLowerCase() + issue.message.slice(1)
}

/**
 * A union (say, "an array or null") fails as a whole; the variant error with the deepest path
 * names the field the client actually got wrong (`faqBlocks.0.question`, not `faqBlocks`).
 */
function deepest(issue: TypeboxIssue): TypeboxIssue {
  let best = issue
  for (const variant of issue.errors ?? []) {
    for (const inner of variant) {
      const candidate = deepest(inner)
      if ((candidate.path ?? '').length > (best.path ?? '').length) best = candidate
    }
  }
  return best
}

/** Typebox issues as the fields at fault, one message per field; `fallback` names the whole value. */
export function fieldErrors(issues: Iterable<unknown>, fallback: string): FieldError[] {
  const byField = new Map<string, string>()
  for (const issue of [...issues].map((i) => deepest(i as TypeboxIssue))) {
    const field = fieldOf(issue.path ?? '', fallback)
    if (!byField.has(field)) byField.set(field, describe(issue))
  }
  return [...byField].map(([field, message]) => ({ field, message }))
}

/** Elysia's validation error (422 by default) as the fields at fault, for a 400 in the envelope. */
export function validationFields(error: Readonly<ValidationError>): FieldError[] {
  const fallback = error.type === 'body' ? 'body' : error.type
  let issues: TypeboxIssue[] = []
  try {
    issues = error.all as unknown as TypeboxIssue[]
  } catch {
    // Some validators (standard schema) expose no issue list; fall back to the summary below.
  }
  const errors = fieldErrors(issues, fallback)
  return errors.length ? errors : [{ field: fallback, message: `invalid ${error.type}` }]
}
