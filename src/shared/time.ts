/** The spec's time shape, `YYYY-MM-DD HH:mm:ss`, always in UTC. */
export const formatTime = (date: Date): string => date.toISOString().slice(0, 19).replace('T', ' ')

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()

/**
 * Reads the spec's time shape or ISO 8601 (optional seconds, fraction and zone); a time without a
 * zone is UTC, never server-local. Null when it is not a real time: `2026-02-31` or `24:00` are
 * refused rather than rolled over into another date.
 */
export function parseTime(value: string | null | undefined): Date | null {
  const match = TIME.exec(value?.trim() ?? '')
  if (!match) return null
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return null
  const fraction = match[7] ?? ''
  const zone = match[8] ?? 'Z'
  const pad = (n: number, width = 2) => String(n).padStart(width, '0')
  const iso = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${fraction}${zone.toUpperCase()}`
  const time = Date.parse(iso)
  return Number.isNaN(time) ? null : new Date(time)
}

/** The injectable clock every verb reads, so tests and the SEO check can fix "now". */
export type Clock = () => Date
export const systemClock: Clock = () => new Date()

/**
 * The system's clock moved `offset[0]` ms ahead: the time of a server a test moves forward instead
 * of waiting (test/support/clocked-main.ts, docs/testing.md); the system's clock without an offset.
 * The offset lives in shared memory, so the server's worker threads read the very same time.
 */
export const offsetClock = (offset?: Float64Array): Clock => (offset ? () => new Date(Date.now() + offset[0]!) : systemClock)

/** A monotonic clock, in ms (`performance.now()`): what spans and throttles are measured on, so a step of the wall clock moves none. */
export type Monotonic = () => number
/** `performance.now()` moved `offset[0]` ms ahead, with the same shared offset as `offsetClock`: a moved server's spans pass too. */
export const offsetMonotonic =
  (offset?: Float64Array): Monotonic =>
  () =>
    performance.now() + (offset?.[0] ?? 0)

/** A wait of `ms` that `cut()` ends at once (a wake-up, a stop); `done` resolves either way, once. */
export function cuttableDelay(ms: number): { done: Promise<void>; cut(): void } {
  let cut = () => {}
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(() => cut(), ms)
    cut = () => {
      clearTimeout(timer)
      resolve()
    }
  })
  return { done, cut: () => cut() }
}
