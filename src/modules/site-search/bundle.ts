const ENTRY = new URL('./client/search.ts', import.meta.url).pathname

/**
 * The search script, bundled by Bun when the service composes (as the console is): the browser
 * code and the tokenizer it shares with the index, one minified file.
 */
export async function buildSearchScript(): Promise<string> {
  const built = await Bun.build({ entrypoints: [ENTRY], target: 'browser', minify: true })
  const js = built.outputs[0]
  if (!built.success || !js) throw new Error(`the search script did not build: ${built.logs.map(String).join('; ')}`)
  return js.text()
}
