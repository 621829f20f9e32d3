import { expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { createLogger } from '../shared/log.ts'
import { createApp } from './app.ts'

test('an unexpected failure is a 500 in the envelope with a request id, logged as JSON, with no internals', async () => {
  const lines: string[] = []
  const boom = new Elysia({ name: 'boom' }).get('/boom', () => {
    throw new TypeError('secret internal detail at /srv/folio/db.ts')
  })
  const app = createApp(
    createLogger('info', (line) => lines.push(line)),
    [boom],
  )
  const response = await app.handle(new Request('http://localhost/boom'))
  expect(response.status).toBe(500)
  const body = (await response.json()) as { code: string; message: string; data: { requestId: string } }
  expect(body.code).toBe('INTERNAL_ERROR')
  expect(body.data.requestId).toMatch(/^[0-9a-f-]{36}$/)
  expect(body.message).toContain(body.data.requestId)
  expect(JSON.stringify(body)).not.toContain('secret internal detail')
  const logged = JSON.parse(lines.at(-1)!)
  expect(logged).toMatchObject({ level: 'error', message: 'unhandled error', requestId: body.data.requestId, path: '/boom' })
  expect(logged.error.message).toContain('secret internal detail')
})
