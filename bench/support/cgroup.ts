/**
 * A memory cgroup for a benchmark (created, then removed): cgroup v2 where the memory controller
 * is on the unified hierarchy, else cgroup v1's memory hierarchy. A process is started inside
 * (`inGroup`: a shell joins, then becomes the command): one moved in later keeps the charges of
 * what it allocated before (kernels from 6.x no longer move them), so it would be undercounted.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface MemoryGroup {
  /** `cgroup v2 …` or `cgroup v1 …`: where it is. */
  where: string
  /** The file a process writes its pid to, to join (a shell's `echo $$ > procs; exec …`). */
  procs: string
  /** The group's peak since the last reset (bytes, page cache included), or null where the kernel does not say. */
  peak(): number | null
  resetPeak(): void
  /** OOM kills in the group so far. */
  oomKills(): number
  remove(): void
}

const read = (file: string) => readFileSync(file, 'utf8')
const field = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)

/** A group limited to `limitBytes` (no swap), or why this box cannot make one. */
export function createMemoryGroup(name: string, limitBytes: number): MemoryGroup | { reason: string } {
  const v2Root = '/sys/fs/cgroup'
  const v2 = existsSync(join(v2Root, 'cgroup.controllers')) && read(join(v2Root, 'cgroup.controllers')).split(/\s+/).includes('memory')
  try {
    if (v2) {
      const dir = join(v2Root, name)
      mkdirSync(dir)
      writeFileSync(join(dir, 'memory.max'), String(limitBytes))
      if (existsSync(join(dir, 'memory.swap.max'))) writeFileSync(join(dir, 'memory.swap.max'), '0')
      const peakFile = join(dir, 'memory.peak')
      return {
        where: `cgroup v2 ${dir}`,
        procs: join(dir, 'cgroup.procs'),
        peak: () => (existsSync(peakFile) ? Number(read(peakFile)) : null),
        // memory.peak is reset by a write on kernels from 6.12; earlier ones keep the group's peak since creation.
        resetPeak: () => {
          try {
            writeFileSync(peakFile, '0')
          } catch {}
        },
        oomKills: () => field(read(join(dir, 'memory.events')), 'oom_kill'),
        remove: () => rmdirSync(dir),
      }
    }
    const dir = join(v2Root, 'memory', name)
    if (!existsSync(join(v2Root, 'memory'))) return { reason: 'no memory controller: neither cgroup v2 nor v1 offers one here' }
    mkdirSync(dir)
    writeFileSync(join(dir, 'memory.limit_in_bytes'), String(limitBytes))
    if (existsSync(join(dir, 'memory.memsw.limit_in_bytes'))) writeFileSync(join(dir, 'memory.memsw.limit_in_bytes'), String(limitBytes))
    return {
      where: `cgroup v1 ${dir}`,
      procs: join(dir, 'cgroup.procs'),
      peak: () => Number(read(join(dir, 'memory.max_usage_in_bytes'))),
      resetPeak: () => writeFileSync(join(dir, 'memory.max_usage_in_bytes'), '0'),
      oomKills: () => field(read(join(dir, 'memory.oom_control')), 'oom_kill'),
      remove: () => rmdirSync(dir),
    }
  } catch (error) {
    return { reason: `cannot create a memory cgroup: ${(error as Error).message}` }
  }
}

/** `command` started inside the group: a shell writes its pid to the group, then becomes the command. */
export const inGroup = (group: MemoryGroup | null, command: string[]): string[] =>
  group ? ['sh', '-c', 'echo $$ > "$0" && exec "$@"', group.procs, ...command] : command

/** A process's resident memory now: RSS and PSS (MB), and its peak RSS (VmHWM) since the last reset. */
export function memoryOf(pid: number): { rssMb: number; pssMb: number; hwmMb: number } | null {
  try {
    const status = read(`/proc/${pid}/status`)
    const kb = (name: string, text: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0)
    const rollup = read(`/proc/${pid}/smaps_rollup`)
    return { rssMb: kb('VmRSS', status) / 1024, pssMb: kb('Pss', rollup) / 1024, hwmMb: kb('VmHWM', status) / 1024 }
  } catch {
    return null // exited
  }
}

/** Starts a new peak-RSS window for the process (VmHWM back to its RSS now). */
export function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
  } catch {}
}
