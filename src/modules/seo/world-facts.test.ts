import { describe, expect, test } from 'bun:test'
import { autofix } from './autofix.ts'
import { check } from './engine.ts'
import * as X from './worked-examples.ts'
import { factsWorld, runSeoJob, worldFacts } from './world-facts.ts'

const EXAMPLES = { E0: X.E0, E1: X.E1, E2: X.E2, E3: X.E3, E4: X.E4, E5: X.E5, Z0: X.Z0, Z1: X.Z1, Z2: X.Z2, Z3: X.Z3 }

describe('world facts: the world as data, asked before the job and answered from inside it', () => {
  test.each(Object.entries(EXAMPLES))(
    '%s: a check and an autofix on the facts (gathered without the body) equal those on the live world, byte for byte',
    (_, input) => {
      for (const task of ['check', 'autofix'] as const) {
        // Through a structured clone, as a pool thread receives them.
        const facts = structuredClone(worldFacts(task, input, X.WORLD, X.NOW))
        const direct = task === 'check' ? check(input, X.WORLD, X.NOW) : autofix(input, X.WORLD, X.NOW)
        expect(JSON.stringify(runSeoJob({ task, input, facts, now: X.NOW.getTime() }))).toBe(JSON.stringify(direct))
      }
    },
  )

  test('a question nobody asked beforehand is refused, never answered "no such post"', () => {
    const world = factsWorld(worldFacts('check', X.E0, X.WORLD, X.NOW))
    expect(() => world.postBySlug('en', 'not-asked')).toThrow('SEO world fact not gathered: postBySlug(en, not-asked)')
    expect(() => world.authorStatus(999)).toThrow('authorStatus(999)')
  })
})
