import { describe, expect, test } from 'bun:test'
import corpus from './corpus/cpu.json'
import { LIMITS } from '../../src/http/schema.ts'
import { check } from '../../src/modules/seo/index.ts'
import { prepareContent } from '../../src/modules/posts/content.ts'
import { E0, NOW, WORLD, Z0 } from '../../src/modules/seo/worked-examples.ts'
import { sanitizeContentHtml } from '../../src/shared/sanitize.ts'
import { ValidationFailed } from '../../src/shared/errors.ts'
import { cpuMs } from '../support/cpu.ts'

interface Case {
  name: string
  prefix: string
  unit: string
  suffix: string
  /** Repeat count; absent: as many as fit in the largest body the API accepts. */
  repeat?: number
  /** The post's language (default en); zh adds the Chinese sentence ends. */
  language?: 'en' | 'zh'
}

/** The body of a case, filled to LIMITS.contentHtml characters unless it names its own count. */
function body({ prefix, unit, suffix, repeat }: Case): string {
  const count = repeat ?? Math.floor((LIMITS.contentHtml - prefix.length - suffix.length) / unit.length)
  return prefix + unit.repeat(count) + suffix
}

/**
 * Item 10 of issue 12: every text pass of the SEO engine is linear. At the largest body the API
 * accepts, each adversarial input costs what one `posts/check` and one save cost on the request
 * loop (sanitize, then the whole check; sanitize, heading ids, contentText) in under 1 s. The bound is the requirement, so it
 * is the assertion; a quadratic pass takes tens of seconds here.
 */
/** Sanitizes like every write; null when the body is refused (the nesting bound's 400 naming contentHtml). */
function sanitized(html: string): string | null {
  try {
    return sanitizeContentHtml(html)
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed)
    return null
  }
}

describe('adversarial bodies at the maximum size (test/security/corpus/cpu.json)', () => {
  test.each((corpus as Case[]).map((c) => [c.name, c] as const))('%s', (_, testCase) => {
    const html = body(testCase)
    expect(html.length).toBeLessThanOrEqual(LIMITS.contentHtml)
    const base = testCase.language === 'zh' ? Z0 : E0
    // posts/check: sanitize, then the whole engine.
    const checkMs = cpuMs(() => {
      const contentHtml = sanitized(html)
      if (contentHtml !== null) expect(check({ ...base, contentHtml }, WORLD, NOW).items).toHaveLength(33)
    })
    // posts/save: sanitize, heading ids, contentText.
    const saveMs = cpuMs(() => {
      try {
        prepareContent(html)
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationFailed)
      }
    })
    expect({ checkMs: checkMs < 1000, saveMs: saveMs < 1000 }).toEqual({ checkMs: true, saveMs: true })
  })
})
