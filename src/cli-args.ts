import { existsSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util'

/** A command line the CLI cannot run: printed as one line, with no stack. */
export class UsageError extends Error {}

/** One CLI command over the composed service (cli.ts). */
export type CliCommand<Service> = (service: Service, args: string[]) => Promise<void> | void

export const options = <T extends ParseArgsOptionsConfig>(args: string[], spec: T) =>
  parseArgs({ args, options: spec, strict: true, allowPositionals: true })

export function positiveId(value: string | undefined): number {
  if (!value || !/^[1-9]\d*$/.test(value)) throw new UsageError(`expected a numeric id, got "${value ?? ''}"`)
  return Number(value)
}

/** The first line of standard input (a password piped in), without its line end; refused when empty. */
export async function stdinLine(what: string): Promise<string> {
  const text = await Bun.stdin.text()
  const line = text.split(/\r?\n/, 1)[0] ?? ''
  if (!line)
    throw new UsageError(`${what} is read from standard input: pipe it in (printf '%s\\n' "$PASSWORD" | npm run --silent cli -- …)`)
  return line
}

/**
 * node:util's parse error as one plain line: `unknown option --bogus for "token create"` rather
 * than its advice about positionals starting with '-'.
 */
export function parseArgsLine(command: string, error: TypeError & { code?: unknown }): string {
  const option = /'(-[^']*)'/.exec(error.message)?.[1]
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option)
    return `unknown option ${option} for "${command}" (${command} --help lists them)`
  return `${error.message.split('. ')[0]} (for "${command}")`
}

/** `backup FILE`: refused when FILE's folder is missing (a typo would otherwise create it) or FILE exists, unless `force`. */
export function backupTargetFault(file: string, force: boolean): void {
  const target = resolve(file)
  const folder = dirname(target)
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`backup: no such folder ${folder}; create it first`)
  if (existsSync(target) && !force) throw new UsageError(`backup: ${file} exists; pass --force to replace it`)
}
