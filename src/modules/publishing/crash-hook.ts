/**
 * A test hook for the fault tests (test/publishing/faults.test.ts): with `FOLIO_TEST_CRASH_AT` set
 * to one of these steps, the server SIGKILLs itself when its first render pass with jobs after
 * start-up (`arm`) reaches that step, so a kill lands between any two steps of a pass by design,
 * not by timing luck. Unset (always, outside tests), `crashPoint` is one comparison.
 */
export const CRASH_STEPS = ['rendered', 'placed', 'renamed', 'copied', 'finished'] as const
export type CrashStep = (typeof CRASH_STEPS)[number]

const wanted = process.env.FOLIO_TEST_CRASH_AT
let armed = false

/** From now on a pass may crash (the server calls it once its start-up repair is done). */
export function armCrashHook(): void {
  armed = wanted !== undefined
}

/** Kills this process at once when the test asked for a crash at `step`. */
export function crashPoint(step: CrashStep): void {
  if (armed && step === wanted) process.kill(process.pid, 'SIGKILL')
}
