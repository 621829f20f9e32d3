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
  await run(['apt-get', 'update', '-qq'])
  await run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', 'chromium'])
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
