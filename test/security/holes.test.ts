import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { publishablePost } from '../support/fixtures.ts'
import { gif, jpeg, paddedPng, png } from '../media/fixtures.ts'
import { startStack, type Stack } from '../publishing/stack.ts'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { publishNewPost } from '../support/fixtures.ts'
import { SPAM_RULES } from '../../src/modules/engagement/spam.ts'
import { until } from '../support/until.ts'

setDefaultTimeout(60_000)

/**
 * Issue 23, the smaller holes, over HTTP against the real server with the real Caddy in front:
 * previews that leaked their token (item 5), uploads judged by their first bytes only (item 6),
 * and media URLs the sanitizer removed before the SEO gate could judge them (item 9).
 */
const B = '/api/v1/blog'
const BUDGET = 300_000
let stack: Stack

beforeAll(async () => {
  // Webhook receivers vetted as in production (the test harness allows private ones by default).
  // A small idempotency budget, so a few large saves pass it.
  stack = await startStack({ WEBHOOK_ALLOW_PRIVATE: '0', IDEMPOTENCY_BUDGET_BYTES: String(BUDGET) })
})
afterAll(() => stack?.dispose())

async function draft(overrides: Record<string, unknown>) {
  const { folio, token, categoryId, authorId } = stack
  const saved = await folio.call('POST', `${B}/posts/save`, {
    token,
    body: { ...publishablePost(categoryId, authorId, overrides), status: 0 },
  })
  expect(saved.body.code).toBe('0000')
  return saved.body.data as { id: number; contentHtml: string }
}

describe('previews keep their token to themselves (item 5)', () => {
  test('a stored iframe loses referrerpolicy; both servers keep the preview routes no-referrer; the log masks the token', async () => {
    const { folio, token } = stack
    const base = publishablePost(stack.categoryId, stack.authorId)
    const post = await draft({
      contentHtml: `${base.contentHtml}<iframe src="https://www.youtube.com/embed/abc" referrerpolicy="unsafe-url"></iframe>`,
    })
    expect(post.contentHtml).toContain('<iframe src="https://www.youtube.com/embed/abc"')
    expect(post.contentHtml).not.toContain('referrerpolicy')

    const created = (await folio.call('POST', `${B}/posts/${post.id}/preview`, { token })).body.data
    const signature = created.token.slice(created.token.lastIndexOf('.') + 1)
    for (const origin of [stack.caddy.url, folio.url])
      for (const path of [`${B}/previews/${created.token}`, `/preview/${created.token}`]) {
        const answer = await fetch(`${origin}${path}`)
        await answer.arrayBuffer()
        expect(`${origin}${path} ${answer.status} ${answer.headers.get('referrer-policy')}`).toBe(`${origin}${path} 200 no-referrer`)
      }
    // The access lines are written in batches: wait (bounded) for the four of them.
    const logged = () =>
      folio.logs().filter((line) => line.message === 'request' && /^(\/preview\/|\/api\/v1\/blog\/previews\/)/.test(line.path ?? ''))
    await until(() => logged().length >= 4, 'the four access lines')
    expect(logged().map((line) => line.path.replace(/\/[^/]+$/, ''))).toEqual([...Array(2)].flatMap(() => [`${B}/previews`, '/preview']))
    expect(folio.output()).not.toContain(signature)
  })
})

describe('the SEO gate judges media URLs as the author sent them (item 9)', () => {
  test('javascript: and file: media URLs in the body block the check and the publish', async () => {
    const { folio, token } = stack
    const base = publishablePost(stack.categoryId, stack.authorId)
    for (const media of ['<img src="javascript:alert(1)" alt="x">', '<video controls><source src="file:///tmp/x.mp4"></video>']) {
      const contentHtml = `${base.contentHtml}${media}`
      const checked = await folio.call('POST', `${B}/posts/check`, { token, body: { ...base, contentHtml } })
      const item = checked.body.data.items.find((i: { code: string }) => i.code === 'broken_media_url')
      expect([media, item.passed]).toEqual([media, false])
      const post = await draft({ contentHtml })
      const published = await folio.call('POST', `${B}/posts/${post.id}/publish`, { token })
      expect([media, published.body.code]).toEqual([media, 'BLOG_SEO_BLOCKED'])
    }
  })
})

/** A real 1x1 PNG whose header declares other dimensions (its CRC made right again). */
function pngDeclaring(width: number, height: number): Uint8Array<ArrayBuffer> {
  const bytes = png()
  const view = new DataView(bytes.buffer)
  view.setUint32(16, width)
  view.setUint32(20, height)
  view.setUint32(29, Bun.hash.crc32(bytes.subarray(12, 29)) >>> 0)
  return bytes
}

describe('uploads are decoded, not only sniffed (item 6)', () => {
  const upload = async (bytes: Uint8Array<ArrayBuffer>, name: string) => {
    const body = new FormData()
    body.append('file', new File([bytes], name))
    return stack.folio.call('POST', `${B}/media/upload`, { token: stack.token, body })
  }
  const junk = (bytes: Uint8Array<ArrayBuffer>, extra: number) => {
    const out = new Uint8Array(bytes.length + extra)
    out.set(bytes)
    out.fill(0x41, bytes.length)
    return out
  }

  test('a tiny PNG declaring 50,000 x 50,000 pixels is refused, naming the file and the limit', async () => {
    const answer = await upload(pngDeclaring(50_000, 50_000), 'huge.png')
    expect(answer.status).toBe(400)
    expect(answer.body.code).toBe('MEDIA_TOO_MANY_PIXELS')
    expect(answer.body.data).toMatchObject({ field: 'file', maxPixels: 40_000_000, width: 50_000, height: 50_000 })
    // Within the limit, the same trick is an ordinary image.
    expect((await upload(pngDeclaring(1, 1), 'small.png')).body.code).toBe('0000')
  })

  test('bytes after the end of a PNG, JPEG or GIF, or a truncated file, are refused', async () => {
    for (const [name, bytes] of [
      ['junk.png', junk(png([1, 2, 3]), 1024 * 1024)],
      ['junk.jpg', junk(jpeg(), 4096)],
      ['junk.gif', junk(gif(), 16)],
      ['cut.png', png([4, 5, 6]).slice(0, -12)],
    ] as const) {
      const answer = await upload(bytes, name)
      expect([name, answer.status, answer.body.code, answer.body.data?.errors?.[0]?.field]).toEqual([name, 400, 'MEDIA_CORRUPT', 'file'])
    }
  })
})

describe('webhook receivers on tunnelled or deprecated IPv6 ranges are refused (item 8)', () => {
  test('IPv4-compatible, site-local, 6to4 and Teredo addresses are refused at save, over HTTP', async () => {
    const admin = await stack.folio.token('blog:admin')
    for (const host of ['[::7f00:1]', '[fec0::1]', '[2002:a9fe:a9fe::1]', '[2001:0:4136:e378:8000:63bf:3fff:fdd2]']) {
      const body = { url: `http://${host}/hook`, secret: 'a-long-enough-webhook-secret', events: ['blog.*'] }
      const answer = await stack.folio.call('POST', '/api/admin/blog/webhooks/save', { token: admin, body })
      expect([host, answer.status, answer.body.data?.errors?.[0]?.field]).toEqual([host, 400, 'url'])
    }
  })
})

describe('storage an anonymous or keyed client can make the box keep is bounded (item 7)', () => {
  const query = <T>(sql: string): T => {
    const db = new Database(join(stack.folio.dataDir, 'folio.db'), { readonly: true })
    try {
      return db.query(sql).get() as T
    } finally {
      db.close()
    }
  }

  test('stored Idempotency-Key answers stay within IDEMPOTENCY_BUDGET_BYTES, the oldest dropped first', async () => {
    const { folio, token, categoryId, authorId } = stack
    const base = publishablePost(categoryId, authorId)
    const big = `<p>${'Padding words for a large body. '.repeat(3_000)}</p>`
    const save = (key: string, n: number) =>
      folio.call('POST', `${B}/posts/save`, {
        token,
        headers: { 'idempotency-key': key },
        body: { ...base, slug: `budget-${n}`, title: `Budget post ${n}`, contentHtml: `${base.contentHtml}${big}`, status: 0 },
      })
    const first: number[] = []
    for (let n = 0; n < 6; n++) first.push((await save(`budget-${n}`, n)).body.data.id)
    const { total } = query<{ total: number }>('select sum(length(body)) as total from idempotency_keys where status is not null')
    expect(total).toBeLessThanOrEqual(BUDGET)
    expect(total).toBeGreaterThan(0)
    // The newest answer is still replayed; the oldest was dropped, so its retry runs again.
    const newest = await save('budget-5', 5)
    expect([newest.headers.get('idempotent-replayed'), newest.body.data.id]).toEqual(['true', first[5]])
    expect((await save('budget-0', 0)).headers.get('idempotent-replayed')).toBeNull()
  })

  test(`rejected spam is pruned to the newest ${SPAM_RULES.keptRows} rows`, async () => {
    const { folio, token, categoryId, authorId } = stack
    const post = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
    const comment = (i: number) =>
      folio.call('POST', `${B}/posts/${post.id}/comments`, {
        body: { authorName: 'Spammer', content: `Buy now ${i} ${'x'.repeat(4_000)}` },
      })
    const total = SPAM_RULES.keptRows + 20
    for (let i = 0; i < total; i += 25) await Promise.all(Array.from({ length: Math.min(25, total - i) }, (_, j) => comment(i + j)))
    const { spam } = query<{ spam: number }>("select count(*) as spam from comments where status = 2 and spam_reason != ''")
    expect(spam).toBe(SPAM_RULES.keptRows)
  })
})

describe('MCP upload_media takes what MAX_UPLOAD_BYTES allows, and answers in the envelope past it (item 8)', () => {
  const mcpUpload = (bytes: Uint8Array) =>
    fetch(`${stack.folio.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'upload_media', arguments: { contentBase64: Buffer.from(bytes).toString('base64') } },
      }),
    })

  test('a 6 MiB image (over the SDK default of 4 MiB) is stored; 11 MiB is refused in the envelope naming the limit', async () => {
    const ok = await mcpUpload(paddedPng(6 * 1024 * 1024))
    const answer = (await ok.json()) as { result: { structuredContent: { code: string; data: string } } }
    expect([ok.status, answer.result.structuredContent.code]).toEqual([200, '0000'])
    const over = await mcpUpload(paddedPng(11 * 1024 * 1024))
    const refused = (await over.json()) as { result: { structuredContent: { code: string; data: { field: string; maxBytes: number } } } }
    expect([over.status, refused.result.structuredContent.code, refused.result.structuredContent.data]).toMatchObject([
      200,
      'MEDIA_TOO_LARGE',
      { field: 'file', maxBytes: 10 * 1024 * 1024 },
    ])
  })
})
