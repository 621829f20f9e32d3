/**
 * How long a test waits for something the server does after its answer (a pass of the sweeper, a
 * retry, a log line, a thread's or a process's start): a ceiling for a hang, not a speed check.
 * Two test files share two cores (scripts/test.sh), so a second's work can take several.
 */
export const WAIT_LIMIT_MS = 30_000

/** Polls `done` until it holds; throws naming `what` if it still does not after `limitMs`. */
export async function until(done: () => boolean | Promise<boolean>, what: string, limitMs = WAIT_LIMIT_MS): Promise<void> {
  for (const deadline = Date.now() + limitMs; !(await done()); await Bun.sleep(50))
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs / 1000} s`)
}

/** Waits for `promise`, but no longer than `limitMs` (a ceiling, should it never settle); clears its timer either way. */
export async function atMost(promise: Promise<unknown>, limitMs = WAIT_LIMIT_MS): Promise<void> {
  let timer: Timer | undefined
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)))])
  clearTimeout(timer)
}
