/**
 * Due times written on a wall clock that has since stepped back (docs/operations.md, "Faults").
 * Durable jobs store an absolute due time; an NTP correction after an hour run fast leaves every
 * job scheduled meanwhile an hour later than its policy ever asks. No policy schedules further
 * ahead than its longest delay, so a due time beyond `now + longest delay + CLOCK_STEP_TOLERANCE_MS`
 * can only come from a clock that was ahead: such a job is re-based to be due now (a retry a
 * little early, an engagement count refreshed at once, rather than an hour late).
 */

/** Slack over a policy's longest delay before a due time counts as set by a fast clock. */
const CLOCK_STEP_TOLERANCE_MS = 60_000

/** The latest due time a job of a policy whose longest delay is `longestDelayMs` can honestly have at `now`. */
export const latestHonestDue = (now: number, longestDelayMs: number): number => now + longestDelayMs + CLOCK_STEP_TOLERANCE_MS
