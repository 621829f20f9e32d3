import { join } from 'node:path'
import { contentEtag } from '../../http/conditional.ts'
import { bundleFiles, type BundleOutput } from '../../shared/bundle-files.ts'

/** One built file of the console, served from memory under a name carrying a hash of its bytes. */
export interface ConsoleAsset {
  file: string
  type: string
  bytes: Uint8Array<ArrayBuffer>
}

export interface ConsoleBundle {
  script: ConsoleAsset
  style: ConsoleAsset
  /** What the script loads on demand (the editor's CodeMirror), under the names the script asks for. */
  chunks: ConsoleAsset[]
}

const ENTRY = new URL('./app/main.tsx', import.meta.url).pathname
const STYLE = new URL('./app/console.css', import.meta.url).pathname

const asset = (output: BundleOutput, name: string, ext: string, type: string): ConsoleAsset => {
  const hash = contentEtag(output.bytes)
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 12)
  return { file: `${name}.${hash}.${ext}`, type, bytes: output.bytes }
}

/**
 * The console's script and stylesheet, bundled by Bun (no build step, no CDN): preact and the
 * pages in one minified module, the stylesheet beside it, and the chunks the script imports on
 * demand (split out, so every other page does not carry the editor's CodeMirror). Built in a
 * process of its own into `CACHE_DIR/.folio-bundles/console` the first time the console is asked
 * for, and read from there after a restart while its sources are unchanged (shared/bundle-files.ts).
 */
async function buildConsole(cacheDir: string): Promise<ConsoleBundle> {
  const outputs = await bundleFiles(join(cacheDir, '.folio-bundles', 'console'), [ENTRY, STYLE], true)
  const js = outputs.find((o) => o.kind === 'entry-point' && o.file.endsWith('.js'))
  const css = outputs.find((o) => o.file.endsWith('.css'))
  if (!js || !css) throw new Error('the console build made no script or no stylesheet')
  return {
    script: asset(js, 'console', 'js', 'text/javascript; charset=utf-8'),
    style: asset(css, 'console', 'css', 'text/css; charset=utf-8'),
    chunks: outputs
      .filter((o) => o.kind === 'chunk')
      .map((o) => ({ file: o.file, type: 'text/javascript; charset=utf-8', bytes: o.bytes })),
  }
}

/** The console's bundle, made at the first call (an idle server holds none of it); a failed build is tried again at the next. */
export function consoleBundle(cacheDir: string): () => Promise<ConsoleBundle> {
  let built: Promise<ConsoleBundle> | null = null
  return () => {
    built ??= buildConsole(cacheDir).catch((error: unknown) => {
      built = null
      throw error
    })
    return built
  }
}
