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
