import { describe, expect, test } from 'bun:test'
import { loadConfig } from '../../config.ts'
import { artifactCacheControl } from '../publishing/cdn-cache.ts'
import { purgeRequest } from './purge-endpoint.ts'

const payload = JSON.stringify({
  id: 'e',
  event: 'blog.cache.purge',
  occurredAt: '2026-01-01 00:00:00',
  passId: 'p',
  part: 1,
  parts: 1,
  urls: ['https://b.example/x', 'https://b.example/y?language=en'],
})

describe('purge endpoint requests', () => {
  test('generic: {"urls": [...]}; cloudflare: {"files": [...]}; the auth header rides along', () => {
    expect(purgeRequest(payload, { format: 'generic', authHeader: null })).toEqual({
      body: '{"urls":["https://b.example/x","https://b.example/y?language=en"]}',
      headers: {},
    })
    expect(purgeRequest(payload, { format: 'cloudflare', authHeader: { name: 'Authorization', value: 'Bearer t0k' } })).toEqual({
      body: '{"files":["https://b.example/x","https://b.example/y?language=en"]}',
      headers: { Authorization: 'Bearer t0k' },
    })
  })
})

describe('PURGE_* and CDN_* settings', () => {
  test('defaults: no endpoint, generic body, s-maxage 60 with 60 s stale-while-revalidate', () => {
    const config = loadConfig({})
    expect(config.purge).toEqual({ url: null, format: 'generic', authHeader: null })
    expect(artifactCacheControl(config.cdn)).toBe('public, max-age=0, must-revalidate, s-maxage=60, stale-while-revalidate=60')
  })

  test('values are read and checked, one line naming the variable', () => {
    const config = loadConfig({
      PURGE_URL: 'https://relay.example/purge/',
      PURGE_FORMAT: 'cloudflare',
      PURGE_AUTH_HEADER: 'X-Api-Key:  k3y value',
      CDN_MAX_AGE: '86400',
      CDN_STALE_WHILE_REVALIDATE: '0',
    })
    expect(config.purge).toEqual({
      url: 'https://relay.example/purge/',
      format: 'cloudflare',
      authHeader: { name: 'X-Api-Key', value: 'k3y value' },
    })
    expect(config.cdn).toEqual({ maxAge: 86400, staleWhileRevalidate: 0 })
    expect(() => loadConfig({ PURGE_FORMAT: 'fastly' })).toThrow(/^PURGE_FORMAT: /)
    for (const bad of ['Authorization', 'Bad Name: x', 'X-Key: \u0001', 'X-Key:'])
      expect(() => loadConfig({ PURGE_AUTH_HEADER: bad })).toThrow(/^PURGE_AUTH_HEADER: /)
    for (const bad of ['-1', 'soon', '31536001']) expect(() => loadConfig({ CDN_MAX_AGE: bad })).toThrow(/^CDN_MAX_AGE: /)
  })
})
