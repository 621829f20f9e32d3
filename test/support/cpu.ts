/**
 * CPU milliseconds of `work` (this process, all threads): the measure for a linearity bound. A
 * contended machine, or a test process descheduled for a second, does not inflate it as it does
 * wall time, so the bound only catches a pass that does quadratic work.
 */
export function cpuMs(work: () => void): number {
  const before = process.cpuUsage()
  work()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000
}
