import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { startStack, type Stack } from '../publishing/stack.ts'
import { until } from '../support/until.ts'

setDefaultTimeout(60_000)

/**
 * Issue 23, item 8: with CSP_REPORT_URL, the pages' policy asks browsers to report violations
 * there, from Caddy and from the API alike, and Folio's own receiver (`/csp-reports`) logs each
 * report it is sent, through Caddy, and refuses what is not one.
 */
let stack: Stack

beforeAll(async () => {
  stack = await startStack({ CSP_REPORT_URL: '/csp-reports' })
})
afterAll(() => stack?.dispose())

const report = {
  'csp-report': {
    'document-uri': 'https://blog.example.org/en/',
    'blocked-uri': 'https://evil.example/x.js',
    'violated-directive': 'script-src',
    'effective-directive': 'script-src-elem',
  },
}

describe('CSP violation reports (CSP_REPORT_URL)', () => {
  test('every page, by Caddy and by the API, carries report-uri; the API answers without a policy keep none', async () => {
    for (const get of [stack.viaCaddy, stack.viaApi]) {
      for (const path of ['/en/', '/cn/', '/nothing-here']) {
        const page = await get(path)
        await page.arrayBuffer()
        expect(page.headers.get('content-security-policy')).toEndWith("frame-ancestors 'none'; report-uri /csp-reports")
      }
      const json = await get('/api/v1/blog/categories')
      await json.arrayBuffer()
      expect(json.headers.get('content-security-policy')).toBeNull()
    }
  })

  test('a report posted through Caddy is one warn line in the log; a body that is no report is a 400 naming it', async () => {
    const sent = await fetch(`${stack.caddy.url}/csp-reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: JSON.stringify(report),
    })
    expect(sent.status).toBe(204)
    const logged = () => stack.folio.logs().filter((line) => line.message === 'csp violation reported')
    await until(() => logged().length > 0, 'the warn line of the report')
    expect(logged()[0]).toMatchObject({ 'blocked-uri': 'https://evil.example/x.js', 'violated-directive': 'script-src' })
    // The Reporting API's shape (report-to) is read too.
    const batch = await fetch(`${stack.folio.url}/csp-reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/reports+json' },
      body: JSON.stringify([{ type: 'csp-violation', body: { documentURL: 'https://blog.example.org/', blockedURL: 'inline' } }]),
    })
    expect(batch.status).toBe(204)
    for (const body of ['not json', '{}', '[1,2]', JSON.stringify({ 'csp-report': 'x' }), 'x'.repeat(20_000)]) {
      const refused = await fetch(`${stack.folio.url}/csp-reports`, {
        method: 'POST',
        headers: { 'content-type': 'application/csp-report' },
        body,
      })
      expect(refused.status).toBe(400)
      expect(await refused.json()).toMatchObject({ code: 'VALIDATION_FAILED', data: { errors: [{ field: 'body' }] } })
    }
  })
})
