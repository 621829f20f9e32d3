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
  const timer = setTimeout(() => bash.kill('SIGKILL'), 60_000)
  const [code, stdout, stderr] = await Promise.all([bash.exited, new Response(bash.stdout).text(), new Response(bash.stderr).text()])
  clearTimeout(timer)
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
  // The check found nothing blocking, the publish answered, the post reads back, once.
  expect(stdout).toContain('"canPublish":true')
  expect(stdout).toContain('"status":1')
  const post = JSON.parse(readFileSync(join(ROOT, 'examples/post.json'), 'utf8'))
  const read = await folio.call('GET', `/api/v1/blog/posts/${post.slug}?language=en`)
  expect(read.body.code).toBe('0000')
  expect(read.body.data.coverAlt).toBe('Logos of three static site generators on a desk')
  expect((await folio.call('GET', '/api/v1/blog/posts?language=en&current=1&size=10')).body.data.total).toBe(1)
})
