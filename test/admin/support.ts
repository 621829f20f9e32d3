import { join, resolve } from 'node:path'
import type { Folio } from '../support/folio.ts'

const ROOT = resolve(import.meta.dir, '..', '..')

/** The admin CLI with `input` on standard input (a password), against this instance. */
export async function cliWithInput(folio: Folio, input: string, ...args: string[]) {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), ...args], {
    cwd: ROOT,
    env: folio.env,
    stdin: new Blob([input]),
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, stdout, stderr }
}

/** The first-run URL the server printed at start. */
export function printedSetupUrl(folio: Folio): string {
  const line = folio.logs().find((l) => l.message?.startsWith('no account yet'))
  if (!line) throw new Error('the server printed no setup URL')
  return line.setupUrl as string
}

/** A browser-like console client: keeps the session cookie and sends the same-origin headers browsers send. */
export function consoleClient(folio: Folio) {
  let cookie = ''
  const client = {
    get cookie() {
      return cookie
    },
    set cookie(value: string) {
      cookie = value
    },
    async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const response = await fetch(`${folio.url}${path}`, {
        method,
        redirect: 'manual',
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(method === 'GET' ? {} : { origin: folio.url, 'sec-fetch-site': 'same-origin' }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const set = response.headers.get('set-cookie')
      if (set) cookie = set.split(';')[0]!.endsWith('=') ? '' : set.split(';')[0]!
      const text = await response.text()
      return { status: response.status, headers: response.headers, setCookie: set, body: text ? JSON.parse(text) : null }
    },
  }
  return client
}

/** `cli user create` with the password on standard input; resolves with the CLI's answer. */
export const createUser = (folio: Folio, user: { email: string; name: string; role: string; password: string }) =>
  cliWithInput(folio, `${user.password}\n`, 'user', 'create', '--email', user.email, '--name', user.name, '--role', user.role)
