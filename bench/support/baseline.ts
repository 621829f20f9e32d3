import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { summarize } from './stats.ts'

/**
 * Old and new code measured alternately in one window (the box's load changes by the minute):
 * the baseline is a folder holding another checkout (BENCH_BASELINE, as bench/lanes.bench.ts
 * takes it) or a git ref given as `--base <ref>`, extracted with `git archive` into a temporary
 * folder that borrows this checkout's node_modules. Each code runs its own `test/support/folio.ts`,
 * so each starts its own server from its own sources.
 */
export interface Code<S> {
  name: string
  start: S
}

/** `--base <ref>` taken out of argv (the rest is returned), or BENCH_BASELINE; null when neither is given. */
export function baselineOf(argv: string[]): { dir: string; name: string; rest: string[]; cleanup(): void } | null {
  const at = argv.indexOf('--base')
  const rest = at < 0 ? argv : [...argv.slice(0, at), ...argv.slice(at + 2)]
  if (at >= 0) {
    const ref = argv[at + 1]
    if (!ref) throw new Error('--base needs a git ref')
    const root = resolve(import.meta.dir, '../..')
    const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', ref], { encoding: 'utf8' }).trim()
    const dir = mkdtempSync(join(tmpdir(), 'folio-base-'))
    execFileSync('sh', ['-c', `git -C "${root}" archive "${commit}" | tar -x -C "${dir}"`])
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
    return { dir, name: `${ref} (${commit})`, rest, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
  }
  const dir = process.env.BENCH_BASELINE
  return dir ? { dir: resolve(dir), name: `baseline (${resolve(dir)})`, rest, cleanup: () => {} } : null
}

/** Each code's figures by name, over rounds. */
export type Figures = Record<string, number>

/**
 * Runs `measure` for each code in turn, `rounds` times (old, new, old, new, …), then prints the
 * median of each figure per code (nearest rank, stats.ts: of two rounds, the larger) with each
 * round's figure, and, against the first code (the baseline), the ratio of the medians.
 */
export async function alternate<S>(codes: Code<S>[], rounds: number, measure: (code: Code<S>, round: number) => Promise<Figures>) {
  const runs = new Map<string, Figures[]>(codes.map((c) => [c.name, []]))
  for (let round = 1; round <= rounds; round++)
    for (const code of codes) {
      console.log(`\n### ${code.name}, round ${round}`)
      runs.get(code.name)!.push(await measure(code, round))
    }
  const names = [...new Set([...runs.values()].flat().flatMap((f) => Object.keys(f)))]
  const median = (code: string, figure: string) => summarize(runs.get(code)!.map((f) => f[figure] ?? NaN)).p50
  const [base, ...others] = codes
  console.log(`\n## medians of ${rounds} round(s)${others.length ? `, ratio against ${base!.name}` : ''}\n`)
  console.log(`| figure | ${codes.map((c) => c.name).join(' | ')} |${others.map(() => ' ratio |').join('')}`)
  console.log(`| --- |${codes.map(() => ' ---: |').join('')}${others.map(() => ' ---: |').join('')}`)
  for (const figure of names) {
    const values = codes.map((c) => median(c.name, figure))
    const ratios = values.slice(1).map((v) => (v / values[0]!).toFixed(2))
    // Each round's figure beside the median, so a round the box's load skewed shows as such.
    const rounds = (code: string) =>
      runs
        .get(code)!
        .map((f) => (f[figure] ?? NaN).toFixed(1))
        .join(' / ')
    const cells = codes.map((c, i) => `${values[i]!.toFixed(2)} (${rounds(c.name)})`)
    console.log(`| ${figure} | ${cells.join(' | ')} |${ratios.map((r) => ` ${r} |`).join('')}`)
  }
}
