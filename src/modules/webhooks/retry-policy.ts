/**
 * The retry schedule, apart from I/O. `delaysMs[i]` is the wait before retry i+1, so a delivery
 * gets one initial attempt plus `delaysMs.length` retries (default 5: at most 6 attempts).
 */
export const maxAttempts = (delaysMs: readonly number[]): number => delaysMs.length + 1

/** `attempts 3/6`: attempts made out of the most there will be, the one way logs and the CLI show it. */
export const attemptsLabel = (made: number, max: number): string => `attempts ${made}/${max}`

/** When to try again after `attemptsMade` failed attempts (counting the one just made), or null to give up. */
export function nextAttemptAt(delaysMs: readonly number[], attemptsMade: number, now: number): number | null {
  const delay = delaysMs[attemptsMade - 1]
  return attemptsMade >= 1 && delay !== undefined ? now + delay : null
}

export type Verdict =
  | { kind: 'delivered' }
  /** 410 Gone: the receiver asks to hear no more; it is disabled. */
  | { kind: 'gone' }
  | { kind: 'retry'; at: number }
  | { kind: 'give-up' }

/** What an attempt's answer means; `httpStatus` is null when no answer came (timeout, refused connection). */
export function judge(httpStatus: number | null, attemptsMade: number, delaysMs: readonly number[], now: number): Verdict {
  if (httpStatus !== null && httpStatus >= 200 && httpStatus < 300) return { kind: 'delivered' }
  if (httpStatus === 410) return { kind: 'gone' }
  const at = nextAttemptAt(delaysMs, attemptsMade, now)
  return at === null ? { kind: 'give-up' } : { kind: 'retry', at }
}
