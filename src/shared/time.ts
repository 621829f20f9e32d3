/** The spec's time shape, `YYYY-MM-DD HH:mm:ss`, always in UTC. */
export const formatTime = (date: Date): string => date.toISOString().slice(0, 19).replace('T', ' ')

/** Reads the spec's time shape (as UTC) or any ISO 8601 string; null when it is not a time. */
export function parseTime(value: string | null | undefined): Date | null {
  const text = value?.trim()
  if (!text) return null
  const spec = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text)
  const date = spec
    ? new Date(Date.UTC(+spec[1]!, +spec[2]! - 1, +spec[3]!, +(spec[4] ?? 0), +(spec[5] ?? 0), +(spec[6] ?? 0)))
    : /^\d{4}-\d{2}-\d{2}T/.test(text)
      ? new Date(text)
      : null
  return date && !Number.isNaN(date.getTime()) ? date : null
}

/** The injectable clock every verb reads, so tests and the SEO check can fix "now". */
export type Clock = () => Date
export const systemClock: Clock = () => new Date()
