import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { startFolio, type Folio } from '../support/folio.ts'

const ROOT = resolve(import.meta.dir, '../..')

/** The `sh` blocks of the README's walkthrough, in order, as one bash script. */
function walkthroughScript(readme: string, url: string): string {
  const section = readme.slice(readme.indexOf('## Publishing walkthrough'))
  const body = section.slice(0, section.indexOf('\n## ', 3))
  const blocks = [...body.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)].map(([, indent, code]) =>
    code!
      .split('\n')
      .map((line) => line.slice(indent!.length))
      .join('\n'),
  )
  return ['set -euo pipefail', ...blocks].join('\n').replaceAll('http://127.0.0.1:3000', url)
}

let folio: Folio
beforeAll(async () => {
  folio = await startFolio()
})
afterAll(() => folio.dispose())

test('the README walkthrough runs as pasted and publishes the post', async () => {
  const script = walkthroughScript(readFileSync(join(ROOT, 'README.md'), 'utf8'), folio.url)
  expect(script.split('\n').length).toBeGreaterThan(30)
  const bash = Bun.spawn(['bash', '-c', script], { cwd: ROOT, env: { ...folio.env }, stdout: 'pipe', stderr: 'pipe' })
  // Ceilings for a hang, not speed checks: the walkthrough starts a dozen CLI processes, each a Bun start.
  const timer = setTimeout(() => bash.kill('SIGKILL'), 100_000)
  const [code, stdout, stderr] = await Promise.all([bash.exited, new Response(bash.stdout).text(), new Response(bash.stderr).text()])
  clearTimeout(timer)
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
  // The check finds the sample's missing cover alt, step 7's fix clears it, the publish answers,
  // the post reads back, once, embedding only the image the walkthrough uploaded.
  const checks = [...stdout.matchAll(/"canPublish":(true|false)/g)].map((m) => m[1])
  expect(checks).toEqual(['false', 'true'])
  expect(stdout).toMatch(/"toFix":\[[^\]]*"key":"cover_alt"/)
  expect(stdout).toContain('"status":1')
  const post = JSON.parse(readFileSync(join(ROOT, 'examples/post.json'), 'utf8'))
  const read = await folio.call('GET', `/api/v1/blog/posts/${post.slug}?language=en`)
  expect(read.body.code).toBe('0000')
  expect(read.body.data.coverAlt).toBe('Logos of three static site generators on a desk')
  const images = [...(read.body.data.contentHtml as string).matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!)
  for (const src of [read.body.data.coverImage as string, ...images])
    expect((await fetch(`${folio.url}${new URL(src).pathname}`)).status).toBe(200)
  expect((await folio.call('GET', '/api/v1/blog/posts?language=en&current=1&size=10')).body.data.total).toBe(1)
}, 120_000)
