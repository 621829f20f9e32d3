import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createServer } from 'node:net'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { until } from '../support/until.ts'

let folio: Folio
beforeAll(async () => {
  folio = await startFolio({
    SITE_URL: 'https://blog.example.com',
    WEBHOOK_RETRY_DELAYS: '100ms',
    WEBHOOK_POLL_MS: '50',
    WEBHOOK_TIMEOUT_MS: '1000',
  })
})
afterAll(() => folio.dispose())

/** Waits (bounded: a webhook's attempts run on the worker thread) for a log line that matches. */
async function line(match: (entry: Record<string, any>) => boolean) {
  let found: Record<string, any> | undefined
  await until(() => (found = folio.logs().find(match)) !== undefined, 'no such log line')
  return found!
}

describe('logs an operator can use', () => {
  test('the start line names the version, SITE_URL, media store and cache dir', async () => {
    const start = await line((e) => e.message === 'listening')
    expect(start).toMatchObject({
      level: 'info',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      siteUrl: 'https://blog.example.com',
      mediaStore: 'local',
      cacheDir: folio.cacheDir,
    })
  })

  test('one access line per request, with the token name and never the token', async () => {
    const token = await folio.token('blog:read', 'blog:write', 'blog:publish')
    const answer = await folio.call('GET', '/api/v1/blog/posts/nope?language=en', { token })
    const requestId = answer.headers.get('x-request-id')
    const entry = await line((e) => e.message === 'request' && e.requestId === requestId)
    expect(entry).toMatchObject({
      level: 'info',
      method: 'GET',
      path: '/api/v1/blog/posts/nope',
      status: 400,
      code: 'BLOG_NOT_FOUND',
      token: 'test-blog:read+blog:write+blog:publish',
    })
    expect(entry.durationMs).toBeNumber()
    expect(JSON.stringify(folio.logs())).not.toContain(token)
  })

  test('a line per publish, unpublish and delete with the post id and slug', async () => {
    const token = await folio.token('blog:read', 'blog:write', 'blog:publish')
    const { categoryId, authorId } = await seedTaxonomy(folio, token)
    const post = publishablePost(categoryId, authorId)
    const { id } = await publishNewPost(folio, token, post)
    await folio.call('GET', `/api/v1/blog/posts/operate?id=${id}&status=2`, { token })
    await folio.call('GET', `/api/v1/blog/posts/delete?id=${id}`, { token })
    for (const message of ['post published', 'post unpublished', 'post deleted'])
      expect(await line((e) => e.message === message && e.postId === id)).toMatchObject({ level: 'info', slug: post.slug, language: 'en' })
  })

  test('a webhook failure line names the receiver, the delivery and the attempt', async () => {
    // A port that refuses: bound, then closed.
    const closed = createServer()
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done))
    const port = (closed.address() as { port: number }).port
    await new Promise((done) => closed.close(done))
    const url = `http://127.0.0.1:${port}/hook`
    expect((await folio.cli('webhook', 'add', '--url', url, '--secret', 'a-long-enough-secret', '--events', 'blog.*')).code).toBe(0)
    const token = await folio.token('blog:read', 'blog:write', 'blog:publish')
    const { categoryId, authorId } = await seedTaxonomy(folio, token)
    await publishNewPost(folio, token, publishablePost(categoryId, authorId))
    const failed = await line((e) => e.message === 'webhook attempt failed' && e.receiverUrl === url)
    expect(failed).toMatchObject({
      level: 'warn',
      receiverId: expect.any(Number),
      deliveryId: expect.any(Number),
      attempts: 'attempts 1/2',
    })
    const gaveUp = await line((e) => e.message === 'webhook delivery failed' && e.receiverUrl === url)
    expect(gaveUp).toMatchObject({ level: 'error', attempts: 'attempts 2/2', final: 'give-up' })
  })

  test('CLI: --help is usage on stdout, tables have header rows, rebuild sums up what it did', async () => {
    const help = await folio.cli('--help')
    expect(help.code).toBe(0)
    expect(help.stdout).toStartWith('usage: ')
    expect((await folio.cli('token', 'create', '--help')).stdout).toStartWith('usage: ')
    expect((await folio.cli('token', 'list')).stdout.split('\n')[0]).toBe('id\tname\ttoken\tscopes\tcreated\tlast used\tstate')
    expect((await folio.cli('webhook', 'deliveries')).stdout.split('\n')[0]).toStartWith('id\tstatus\tevent\treceiver\tattempts')
    const rebuilt = /^rebuilt artifacts: (\d+) rendered, (\d+) written, (\d+) removed, (\d+) unchanged, \d+ skipped in \d+ ms$/m.exec(
      (await folio.cli('rebuild')).stdout,
    )
    const [rendered, written, removed, unchanged] = rebuilt!.slice(1).map(Number)
    expect(written! + removed! + unchanged!).toBe(rendered!)
    const unknown = await folio.cli('frobnicate')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toStartWith('folio: unknown command "frobnicate"')
  })
})
