import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..', '..')
const MARKER = '// verify-folio-signature.mjs'

type Verify = (secret: string, header: string | null, rawBody: string, now?: number, toleranceSeconds?: number) => boolean

/**
 * The verification function exactly as docs/webhooks.md prints it, loaded as a module: the tests run
 * what receivers will copy.
 */
export async function readmeVerify(): Promise<Verify> {
  const block = new RegExp('```js\\n(' + MARKER + '\\n[\\s\\S]*?)```').exec(readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8'))
  if (!block) throw new Error(`no js block starting with "${MARKER}" in docs/webhooks.md`)
  const module = join(mkdtempSync(join(tmpdir(), 'folio-verify-')), 'verify.mjs')
  writeFileSync(module, block[1]!)
  return (await import(module)).verifyFolioSignature as Verify
}
