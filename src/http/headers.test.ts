import { expect, test } from 'bun:test'
import { htmlPageHeaders, isPrivateAnswer, SECURITY_HEADERS } from './headers.ts'

test('HTML pages: CSP runs only the site own scripts, refuses framing, allows the sanitizer embed hosts', () => {
  const headers = htmlPageHeaders({ media: ['https://media.example.com'] })
  expect(headers).toMatchObject({ ...SECURITY_HEADERS, 'X-Frame-Options': 'DENY' })
  const csp = Object.fromEntries(headers['Content-Security-Policy']!.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]))
  expect(csp['script-src']).toEqual(["'self'"])
  expect(csp['object-src']).toEqual(["'none'"])
  expect(csp['base-uri']).toEqual(["'none'"])
  expect(csp['frame-ancestors']).toEqual(["'none'"])
  expect(csp['frame-src']).toContain('https://www.youtube-nocookie.com')
  expect(csp['img-src']).toContain('https://media.example.com')
})

test('private answers: a token, or an admin or resource path', () => {
  expect(isPrivateAnswer('/api/v1/blog/posts', true)).toBe(true)
  expect(isPrivateAnswer('/api/admin/blog/webhooks', false)).toBe(true)
  expect(isPrivateAnswer('/api/v1/blog/resources/search', false)).toBe(true)
  expect(isPrivateAnswer('/api/v1/blog/posts', false)).toBe(false)
})
