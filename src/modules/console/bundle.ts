import { basename } from 'node:path'
import { contentEtag } from '../../http/conditional.ts'

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

const asset = async (output: Blob, name: string, ext: string, type: string): Promise<ConsoleAsset> => {
  const bytes = new Uint8Array(await output.arrayBuffer())
  const hash = contentEtag(bytes)
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 12)
  return { file: `${name}.${hash}.${ext}`, type, bytes }
}

/**
 * The console's script and stylesheet, bundled by Bun when the server starts (no build step, no
 * CDN): preact and the pages in one minified module, the stylesheet beside it, and the chunks the
 * script imports on demand (split out, so every other page does not carry the editor's CodeMirror).
 */
export async function buildConsole(): Promise<ConsoleBundle> {
  const built = await Bun.build({ entrypoints: [ENTRY, STYLE], target: 'browser', minify: true, splitting: true })
  if (!built.success) throw new Error(`the console did not build: ${built.logs.map(String).join('; ')}`)
  const js = built.outputs.find((o) => o.kind === 'entry-point' && o.path.endsWith('.js'))
  const css = built.outputs.find((o) => o.path.endsWith('.css'))
  if (!js || !css) throw new Error('the console build made no script or no stylesheet')
  return {
    script: await asset(js, 'console', 'js', 'text/javascript; charset=utf-8'),
    style: await asset(css, 'console', 'css', 'text/css; charset=utf-8'),
    chunks: await Promise.all(
      built.outputs
        .filter((o) => o.kind === 'chunk')
        .map(async (o) => ({
          file: basename(o.path),
          type: 'text/javascript; charset=utf-8',
          bytes: new Uint8Array(await o.arrayBuffer()),
        })),
    ),
  }
}
