import corpus from '../security/corpus/cpu.json'
import { LIMITS } from '../../src/http/schema.ts'

/** The body of the CPU corpus case `name` (test/security/corpus/cpu.json), filled to the largest the API accepts. */
export function maximalBody(name: string): string {
  const found = (corpus as { name: string; prefix: string; unit: string; suffix: string }[]).find((entry) => entry.name === name)
  if (!found) throw new Error(`no CPU corpus case "${name}"`)
  const { prefix, unit, suffix } = found
  return prefix + unit.repeat(Math.floor((LIMITS.contentHtml - prefix.length - suffix.length) / unit.length)) + suffix
}
