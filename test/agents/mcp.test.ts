import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { join, resolve } from 'node:path'
import { Database } from 'bun:sqlite'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { parseToken } from '../../src/modules/tokens/token-format.ts'
import { paddedPng, png } from '../media/fixtures.ts'
import { publishablePost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'

// The SDK's own client against the real server: Streamable HTTP at /mcp and stdio (`npm run --silent mcp`).
setDefaultTimeout(30_000)

const ROOT = resolve(import.meta.dir, '..', '..')
let folio: Folio
let token: string
let taxonomy: { categoryId: number; authorId: number }
const clients: Client[] = []
/** Each agent session makes its own category, named by its turn. */
let agentRuns = 0

beforeAll(async () => {
  folio = await startFolio()
  token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  taxonomy = await seedTaxonomy(folio, token)
})
afterAll(async () => {
  for (const client of clients) await client.close()
  await folio?.dispose()
})

async function connect(transport: 'http' | 'stdio', as: string): Promise<Client> {
  const client = new Client({ name: 'folio-test-agent', version: '1.0.0' })
  await client.connect(
    transport === 'http'
      ? new StreamableHTTPClientTransport(new URL(`${folio.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${as}` } } })
      : new StdioClientTransport({
          command: 'npm',
          args: ['run', '--silent', 'mcp'],
          cwd: ROOT,
          env: { ...folio.env, FOLIO_TOKEN: as },
          stderr: 'pipe',
        }),
  )
  clients.push(client)
  return client
}

/** A tool's answer: the API envelope, and whether the SDK marked it an error. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args })
  const envelope = result.structuredContent as { code: string; message: string; data: any }
  expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(envelope)
  return { ...envelope, isError: result.isError }
}

const ALL_TOOLS = [
  'list_categories',
  'list_tags',
  'list_authors',
  'save_category',
  'save_tag',
  'upload_media',
  'search_resources',
  'search_posts',
  'check_post',
  'save_draft',
  'autofix_post',
  'read_post',
  'preview_post',
  'publish_post',
  'schedule_post',
  'unpublish_post',
]

/** What an agent does: read the taxonomy, upload a cover, save, check, get blocked, fix, preview, publish. */
async function blockedToPublished(client: Client) {
  const tools = await client.listTools()
  expect(tools.tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort())
  const save = tools.tools.find((t) => t.name === 'save_draft')!
  expect(save.inputSchema).toMatchObject({
    type: 'object',
    required: expect.arrayContaining(['language', 'title', 'categoryId']),
  })
  // The body is contentHtml or contentMarkdown (exactly one, checked by the verb).
  expect(Object.keys(save.inputSchema.properties!)).toEqual(expect.arrayContaining(['contentHtml', 'contentMarkdown']))
  expect(Object.keys(save.inputSchema.properties!)).not.toContain('status')

  // From nothing: the agent makes its own category and tag.
  const made = await call(client, 'save_category', { nameEn: `Agent notes ${++agentRuns}`, nameZh: `代理笔记 ${agentRuns}` })
  expect(made.data.id).toBeGreaterThan(0)
  expect((await call(client, 'save_tag', { nameEn: `agent-${made.data.id}`, nameZh: '代理', language: 'all' })).data.id).toBeGreaterThan(0)
  const categories = await call(client, 'list_categories')
  expect(categories.data.map((c: { id: number }) => c.id)).toContain(taxonomy.categoryId)
  expect((await call(client, 'list_authors', { language: 'en' })).data.map((a: { id: number }) => a.id)).toContain(taxonomy.authorId)
  expect((await call(client, 'list_tags', { language: 'all' })).code).toBe('0000')
  expect((await call(client, 'search_resources', { keywords: 'anything' })).data).toMatchObject({ total: 0, records: [] })
  expect((await call(client, 'search_posts', { q: 'nothing published yet' })).data).toMatchObject({ total: 0, records: [] })

  const cover = await call(client, 'upload_media', {
    contentBase64: Buffer.from(png([Math.floor(Math.random() * 255), 1, 2])).toString('base64'),
  })
  expect(cover.data).toMatch(/^http:\/\/.+\.png$/)

  const post = { ...publishablePost(taxonomy.categoryId, taxonomy.authorId), coverImage: cover.data, coverAlt: '' }
  const saved = await call(client, 'save_draft', post)
  expect(saved.data).toMatchObject({ status: 0, coverImage: cover.data, scheduledAt: null })
  const id = saved.data.id as number

  // Only the id: the stored post is checked; a field sent is laid over it.
  const check = await call(client, 'check_post', { id })
  expect(check.data.canPublish).toBe(false)
  const overlaid = await call(client, 'check_post', { id, coverAlt: 'Three logos on a desk' })
  expect(overlaid.data.canPublish).toBe(true)
  expect(await call(client, 'check_post', { title: 'No id' })).toMatchObject({ isError: true, data: { errors: [{ field: 'language' }] } })
  const coverAlt = check.data.items.find((item: { code: string }) => item.code === 'cover_alt')
  expect(coverAlt).toMatchObject({ passed: false, blocking: true, targetField: 'coverAlt' })
  expect(coverAlt.fixAction).toBeTruthy()

  const blocked = await call(client, 'publish_post', { id })
  expect(blocked).toMatchObject({ isError: true, code: 'BLOG_SEO_BLOCKED', data: { canPublish: false } })
  expect(blocked.data.failedItems).toEqual(['cover_alt'])
  expect(blocked.data.failures[0]).toMatchObject({ code: 'cover_alt', targetField: 'coverAlt' })

  // The failed item has an autoFixType: the agent lets Folio apply it, previews, and publishes.
  expect(coverAlt.autoFixType).toBe('cover_alt')
  const fixed = await call(client, 'autofix_post', { id })
  expect(fixed).toMatchObject({ isError: false, code: '0000', data: { check: { canPublish: true } } })
  expect(fixed.data.applied).toContain('cover_alt')
  const fixedAlt = fixed.data.post.coverAlt as string
  expect(fixedAlt.length).toBeGreaterThan(0)
  const preview = await call(client, 'preview_post', { id, expiresIn: 600 })
  const previewed = (await (await fetch(preview.data.url.replace('http://localhost:3000', folio.url))).json()) as any
  expect(previewed.data).toMatchObject({ id, status: 0, coverAlt: fixedAlt })

  const published = await call(client, 'publish_post', { id: String(id) })
  expect(published).toMatchObject({ isError: false, code: '0000', data: { id, status: 1 } })
  expect((await folio.call('GET', `/api/v1/blog/posts/${saved.data.slug}`)).body.data.id).toBe(id)
  expect((await call(client, 'read_post', { id })).data).toMatchObject({ status: 1, coverAlt: fixedAlt })
  return id
}

describe('MCP over Streamable HTTP', () => {
  test('an agent session takes a draft from blocked to published, then schedules and unpublishes', async () => {
    const client = await connect('http', token)
    expect(client.getInstructions()).toContain('publish_post')
    const id = await blockedToPublished(client)

    const unpublished = await call(client, 'unpublish_post', { id })
    expect(unpublished.data).toMatchObject({ id, status: 2 })
    const scheduled = await call(client, 'schedule_post', { id, publishAt: '2099-05-01 08:00:00' })
    expect(scheduled.data).toMatchObject({ status: 2, scheduledAt: '2099-05-01 08:00:00' })
    expect((await call(client, 'schedule_post', { id, publishAt: null })).data.scheduledAt).toBeNull()
  })

  test('a token sees only the tools its scopes allow; any other call is refused; bad input names the field', async () => {
    const writer = await connect('http', await folio.token('blog:write'))
    const names = (await writer.listTools()).tools.map((t) => t.name)
    expect(names).toEqual(ALL_TOOLS.filter((n) => !['search_resources', 'publish_post', 'schedule_post', 'unpublish_post'].includes(n)))
    expect(await call(writer, 'publish_post', { id: 1 })).toMatchObject({
      isError: true,
      code: 'FORBIDDEN',
      data: { requiredScope: 'blog:publish' },
    })

    const reader = await connect('http', await folio.token('blog:read'))
    expect((await reader.listTools()).tools.map((t) => t.name)).toEqual([
      'list_categories',
      'list_tags',
      'list_authors',
      'search_resources',
      'search_posts',
    ])
    expect((await call(reader, 'save_draft', {})).code).toBe('FORBIDDEN')

    const invalid = await call(writer, 'read_post', { id: 'seven' })
    expect(invalid).toMatchObject({ isError: true, code: 'VALIDATION_FAILED', data: { errors: [{ field: 'id' }] } })
    expect((await call(writer, 'read_post', { id: 999_999 })).code).toBe('BLOG_NOT_FOUND')
    expect((await call(writer, 'upload_media', { contentBase64: 'aGVsbG8=' })).isError).toBe(true)
    await expect(writer.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/no_such_tool/)
  })

  test('upload_media takes an image up to MAX_UPLOAD_BYTES as base64, beyond the plain JSON body limit', async () => {
    const client = await connect('http', token)
    // A whole image (junk after one is refused): a PNG carrying an ancillary chunk.
    const big = paddedPng(2_600_000)
    const base64 = Buffer.from(big).toString('base64')
    expect(base64.length).toBeGreaterThan(4 * 500_000 + 1024 * 1024)
    expect((await call(client, 'upload_media', { contentBase64: base64 })).data).toMatch(/\.png$/)
  })

  test('without a valid token /mcp answers 401 in the envelope; it is stateless, so only POST is allowed', async () => {
    for (const headers of [{}, { authorization: 'Bearer folio_nope' }] as Record<string, string>[]) {
      const answer = await folio.call('POST', '/mcp', { headers, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })
      expect([answer.status, answer.body.code]).toEqual([401, 'UNAUTHORIZED'])
      // A bearer challenge, so MCP clients do not go looking for an OAuth flow.
      expect(answer.headers.get('www-authenticate')).toStartWith('Bearer realm="folio"')
    }
    for (const method of ['GET', 'DELETE']) {
      const answer = await folio.call(method, '/mcp', { token, headers: { accept: 'text/event-stream' } })
      expect([answer.status, answer.headers.get('allow'), (answer.body as any).error.code]).toEqual([405, 'POST', -32000])
    }
  })
})

describe('MCP over stdio (npm run --silent mcp)', () => {
  test('the same agent session works in-process on the database, with the scopes of FOLIO_TOKEN', async () => {
    await blockedToPublished(await connect('stdio', token))
    const writer = await connect('stdio', await folio.token('blog:write'))
    expect((await writer.listTools()).tools.map((t) => t.name)).not.toContain('publish_post')
    expect((await call(writer, 'publish_post', { id: 1 })).code).toBe('FORBIDDEN')
  })

  test('each tool call is in the call log, with its outcome, and marks its token used', async () => {
    const agent = await folio.token('blog:read', 'blog:write', 'blog:publish')
    const prefix = parseToken(agent)!.prefix
    const listed = async () => (await folio.cli('token', 'list')).stdout.split('\n').find((line) => line.includes(`folio_${prefix}_`))
    expect(await listed()).toContain('never used')
    const client = await connect('stdio', agent)
    expect((await call(client, 'list_categories')).code).toBe('0000')
    expect((await call(client, 'publish_post', { id: 999_999 })).code).toBe('BLOG_NOT_FOUND')
    const db = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
    try {
      const rows = db
        .query(
          'select a.method, a.path, a.status, a.code, a.required_scope as scope, a.ip from api_calls a join api_tokens t on t.id = a.token_id where t.prefix = ? order by a.id',
        )
        .all(prefix)
      expect(rows).toEqual([
        { method: 'MCP', path: 'stdio:list_categories', status: 200, code: '0000', scope: null, ip: 'stdio' },
        { method: 'MCP', path: 'stdio:publish_post', status: 200, code: 'BLOG_NOT_FOUND', scope: 'blog:publish', ip: 'stdio' },
      ])
    } finally {
      db.close()
    }
    expect(await listed()).not.toContain('never used')
  })

  test('a missing or unknown FOLIO_TOKEN stops it with one line on stderr', async () => {
    for (const FOLIO_TOKEN of ['', 'folio_nope']) {
      const proc = Bun.spawn(['npm', 'run', '--silent', 'mcp'], {
        cwd: ROOT,
        env: { ...folio.env, FOLIO_TOKEN },
        stdin: 'pipe',
        stdout: 'pipe',
        stderr: 'pipe',
      })
      const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
      expect([code, stdout]).toEqual([1, ''])
      expect(stderr).toContain('FOLIO_TOKEN')
    }
  })
})
