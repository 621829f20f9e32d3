import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { pythonTool, run } from '../support/tools.ts'

/**
 * Schemathesis against the live server, from the document it serves: every operation gets the
 * boundary cases of its schemas (coverage: each limit, just inside and just past it) and random
 * valid and invalid input (fuzzing) with a full-scope token, and every answer must be described
 * by the document (status, content type, headers, body) and none may be a 5xx. The budget is
 * small and the seed fixed, so `npm test` stays within a minute or two and repeatable;
 * scripts/schemathesis.sh runs the same test with the stateful phase too and a bigger budget
 * (FOLIO_SCHEMATHESIS=long).
 */
const LONG = process.env.FOLIO_SCHEMATHESIS === 'long'
const BUDGET = LONG
  ? ['--phases', 'examples,coverage,fuzzing,stateful', '--max-examples', process.env.FOLIO_SCHEMATHESIS_EXAMPLES ?? '200']
  : ['--phases', 'examples,coverage,fuzzing', '--max-examples', '15']
const SEED = process.env.FOLIO_SCHEMATHESIS_SEED ?? '20261124'
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  // A method a path does not answer is a 405 (exercised by the coverage phase of the long run).
  'unsupported_method',
]
const TIMEOUT_MS = (LONG ? 60 : 8) * 60_000

let folio: Folio
let token: string
// Schemathesis keeps a cache in its working folder: a temp one, never the repository.
let work: string
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'folio-schemathesis-'))
  folio = await startFolio()
  token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  // Something to find: small ids then name a real category, author, post and comment.
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  await folio.call('POST', '/api/v1/blog/tags/save', { token, body: { nameEn: 'Speed', language: 'all' } })
  const post = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  await folio.call('POST', `/api/v1/blog/posts/${post.id}/comments`, { body: { authorName: 'Ann', content: 'Thanks for the comparison.' } })
})
afterAll(async () => {
  await folio?.dispose()
  if (work) rmSync(work, { recursive: true, force: true })
})

test(
  'Schemathesis: no server error, and every answer is the one the document describes',
  async () => {
    const schemathesis = await pythonTool('schemathesis')
    const out = await run(
      [
        schemathesis,
        'run',
        `${folio.url}/api/v1/blog/openapi.json`,
        '--url',
        folio.url,
        '--header',
        `Authorization: Bearer ${token}`,
        '--seed',
        SEED,
        ...BUDGET,
        '--checks',
        CHECKS.join(','),
        // One worker: Hypothesis names filter lambdas with ast.parse, and CPython 3.11's AST builder
        // keeps its recursion depth in shared state, so two worker threads parsing at once can fail
        // with "AST constructor recursion depth mismatch" (CPython gh-106905; this failed CI once).
        // On this 2-core box one worker is no slower.
        '--workers',
        '1',
        '--request-timeout',
        '30',
        '--generation-database',
        'none',
        '--suppress-health-check',
        'all',
        '--no-color',
      ],
      { cwd: work, timeoutMs: TIMEOUT_MS },
    )
    if (out.code !== 0) console.error(out.stdout, out.stderr)
    expect(out.stdout).toMatch(/Test cases:\s+\d+ generated, \d+ passed/)
    expect(out.stdout).not.toMatch(/failures? found|errors? found/i)
    expect(out.code).toBe(0)
  },
  TIMEOUT_MS + 60_000,
)
