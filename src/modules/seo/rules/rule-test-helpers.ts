import { expect, test } from 'bun:test'
import { check } from '../engine.ts'
import type { SeoCheckItem, SeoInput, SeoWorld } from '../types.ts'
import { E0, NOW, WORLD, Z0 } from '../worked-examples.ts'

/** A post that passes every rule, to change one field of. */
export const BASE = { en: E0, zh: Z0 } as const

export function itemFor(code: string, input: SeoInput, world: SeoWorld = WORLD, now: Date = NOW): SeoCheckItem {
  const item = check(input, world, now).items.find((candidate) => candidate.code === code)
  if (!item) throw new Error(`no item ${code}`)
  return item
}

export interface Case {
  name: string
  input: SeoInput
  passed: boolean
  message?: string | RegExp
  world?: SeoWorld
}

/** One test per case: the rule passes or fails as expected, with the expected message. */
export function cases(code: string, list: readonly Case[]): void {
  for (const { name, input, passed, message, world } of list) {
    test(`${code}: ${name}`, () => {
      const item = itemFor(code, input, world)
      expect(item.passed).toBe(passed)
      if (typeof message === 'string') expect(item.message).toBe(message)
      else if (message) expect(item.message).toMatch(message)
    })
  }
}

/** Field-length fillers: n Latin letters, n Han characters, n English words. */
export const letters = (n: number): string => 'a'.repeat(n)
export const han = (n: number): string => '字'.repeat(n)
export const words = (n: number): string => 'word '.repeat(n).trim()
