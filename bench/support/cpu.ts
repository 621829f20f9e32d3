import { existsSync, readFileSync } from 'node:fs'

/**
 * CPU time (user + system, ms) a process has used so far, all its threads, or one thread of it
 * (`thread`: a task id; the process's own id is its main thread), from /proc; null where there is none.
 */
export function cpuMs(pid: number, thread?: number): number | null {
  const stat = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`
  if (!existsSync(stat)) return null
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100/s).
  const fields = readFileSync(stat, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}
