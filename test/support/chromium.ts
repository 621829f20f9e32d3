import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'

const EXECUTABLE = '/usr/bin/chromium'

async function run(command: string[]): Promise<void> {
  const proc = Bun.spawn(command, { stdout: 'pipe', stderr: 'pipe' })
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  if (code !== 0) throw new Error(`${command.join(' ')} failed (${code}): ${err}`)
}

/** Installs Debian's chromium when it is missing (as the Caddy helper does for caddy). */
export async function ensureChromium(): Promise<void> {
  if (await Bun.file(EXECUTABLE).exists()) return
  // Two test files may ask at once, and scripts/caddy.sh installs with apt too: one apt run at a
  // time under the same lock (the second finds chromium there), each waiting for dpkg's own lock.
  const lock = join(process.env.FOLIO_CACHE_DIR ?? join(homedir(), '.cache/folio'), 'apt.lock')
  mkdirSync(dirname(lock), { recursive: true })
  const apt = 'apt-get -o DPkg::Lock::Timeout=600'
  const install = `test -x ${EXECUTABLE} || { ${apt} update -qq && DEBIAN_FRONTEND=noninteractive ${apt} install -y -qq chromium; }`
  await run(['flock', lock, 'sh', '-c', install])
  if (!(await Bun.file(EXECUTABLE).exists())) throw new Error('chromium did not install')
}

/** Headless Debian chromium, never reaching past loopback on its own (no QUIC, no background networking). */
export async function launchChromium(): Promise<Browser> {
  await ensureChromium()
  return chromium.launch({
    executablePath: EXECUTABLE,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
