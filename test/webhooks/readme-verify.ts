import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..', '..')
const MARKER = '// verify-folio-signature.mjs'

type Verify = (secret: string, header: string | null, rawBody: string, now?: number, toleranceSeconds?: number) => boolean

/**
 * The verification function exactly as the documentation prints it (docs/webhooks.md, or the
 * README once the docs are folded in), loaded as a module: tests run what receivers will copy.
 */
export async function readmeVerify(): Promise<Verify> {
  for (const file of ['docs/webhooks.md', 'README.md'].map((f) => join(ROOT, f))) {
    if (!existsSync(file)) continue
    const block = new RegExp('```js\\n(' + MARKER + '\\n[\\s\\S]*?)```').exec(readFileSync(file, 'utf8'))
    if (!block) continue
    const module = join(mkdtempSync(join(tmpdir(), 'folio-verify-')), 'verify.mjs')
    writeFileSync(module, block[1]!)
    return (await import(module)).verifyFolioSignature as Verify
  }
  throw new Error(`no js block starting with "${MARKER}" in docs/webhooks.md or README.md`)
}
