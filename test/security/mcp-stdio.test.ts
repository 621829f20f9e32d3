import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { join, resolve } from 'node:path'
import { Database } from 'bun:sqlite'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { parseToken } from '../../src/modules/tokens/token-format.ts'
import { publishablePost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'

setDefaultTimeout(60_000)

const ROOT = resolve(import.meta.dir, '..', '..')
let folio: Folio

beforeAll(async () => {
  folio = await startFolio()
})
afterAll(() => folio?.dispose())

// Issue 23, item 4: `cli token revoke` stops an MCP stdio session already running.
test('a revoked token ends a running stdio session: the next call is refused, runs nothing, and the session closes', async () => {
  const agent = await folio.token('blog:read', 'blog:write')
  const { categoryId, authorId } = await seedTaxonomy(folio, agent)
  const transport = new StdioClientTransport({
    command: 'npm',
    args: ['run', '--silent', 'mcp'],
    cwd: ROOT,
    env: { ...folio.env, FOLIO_TOKEN: agent },
    stderr: 'pipe',
  })
  const client = new Client({ name: 'revoked-agent', version: '1.0.0' })
  await client.connect(transport)
  const closed = new Promise<void>((done) => (client.onclose = done))
  const save = async (title: string) => {
    const result = await client.callTool({ name: 'save_draft', arguments: publishablePost(categoryId, authorId, { title }) })
    return { ...(result.structuredContent as { code: string; message: string }), isError: result.isError }
  }
  expect((await save('Saved while the token is good')).code).toBe('0000')

  const prefix = parseToken(agent)!.prefix
  const line = (await folio.cli('token', 'list')).stdout.split('\n').find((l) => l.includes(`folio_${prefix}_`))!
  expect((await folio.cli('token', 'revoke', line.split('\t')[0]!)).code).toBe(0)

  const refused = await save('Saved after the revocation')
  expect(refused).toMatchObject({ code: 'UNAUTHORIZED', isError: true })
  expect(refused.message).toContain('revoked')
  await closed

  // Nothing was saved by the refused call.
  const db = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
  try {
    const titles = db.query('select title from posts').all() as { title: string }[]
    expect(titles.map((row) => row.title)).toEqual(['Saved while the token is good'])
  } finally {
    db.close()
  }
})
