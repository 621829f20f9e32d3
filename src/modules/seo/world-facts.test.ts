import { describe, expect, test } from 'bun:test'
import { autofix } from './autofix.ts'
import { check } from './engine.ts'
import * as X from './worked-examples.ts'
import { createTestWorld } from './test-world.ts'
import { factsHold, factsWorld, likelyFacts, runAnswered, runSeoJob, worldFacts } from './world-facts.ts'

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

  test.each(Object.entries(EXAMPLES))(
    '%s: the likely facts (asked without running a rule) answer every question of a check and an autofix',
    (_, input) => {
      for (const task of ['check', 'autofix'] as const) {
        const facts = structuredClone(likelyFacts(input, X.WORLD))
        const direct = task === 'check' ? check(input, X.WORLD, X.NOW) : autofix(input, X.WORLD, X.NOW)
        expect(JSON.stringify(runAnswered({ task, input, facts, now: X.NOW.getTime() }))).toBe(JSON.stringify(direct))
      }
    },
  )

  test('a job that asks what its facts lack answers null, so the caller gathers them all', () => {
    const facts = likelyFacts(X.E0, X.WORLD)
    facts.category.clear()
    expect(runAnswered({ task: 'check', input: X.E0, facts, now: X.NOW.getTime() })).toBeNull()
  })

  test('a question nobody asked beforehand is refused, never answered "no such post"', () => {
    const world = factsWorld(worldFacts('check', X.E0, X.WORLD, X.NOW))
    expect(() => world.postBySlug('en', 'not-asked')).toThrow('SEO world fact not gathered: postBySlug(en, not-asked)')
    expect(() => world.authorStatus(999)).toThrow('authorStatus(999)')
  })

  test.each(Object.entries(EXAMPLES))('%s: the facts hold exactly when gathering them again finds equal facts', (_, input) => {
    const facts = worldFacts('check', input, X.WORLD, X.NOW)
    const worlds = [
      X.WORLD,
      createTestWorld({ ...X.WORLD_DATA, posts: [...X.WORLD_DATA.posts!, { id: 300, language: 'zh', slug: input.alternateSlug || 'x' }] }),
      createTestWorld({
        ...X.WORLD_DATA,
        posts: [...X.WORLD_DATA.posts!, { id: 301, language: input.language, slug: (input.slug ?? 'x').toUpperCase() }],
      }),
      createTestWorld({ ...X.WORLD_DATA, authors: [{ id: 7, status: 0 }] }),
      createTestWorld({ ...X.WORLD_DATA, categories: [{ id: 1, nameEn: 'Guides', nameZh: '' }] }),
      createTestWorld({ ...X.WORLD_DATA, mediaKeys: ['a.png'] }),
    ]
    for (const world of worlds) expect(factsHold(facts, world)).toBe(Bun.deepEquals(worldFacts('check', input, world, X.NOW), facts, true))
    expect(factsHold(facts, X.WORLD)).toBe(true)
    expect(worlds.filter((world) => !factsHold(facts, world)).length).toBeGreaterThan(0)
  })
})
