import { describe, expect, test } from 'bun:test'
import { loadConfig } from '../../config.ts'
import { indexNowRequest, webSubRequest } from './discovery-requests.ts'

const payload = (urls: string[]) =>
  JSON.stringify({ id: 'e', event: 'blog.indexnow.submit', occurredAt: '2026-01-01 00:00:00', passId: 'p', part: 1, parts: 1, urls })

describe('IndexNow and WebSub requests', () => {
  test('IndexNow: {host, key, keyLocation, urlList} as JSON', () => {
    const request = indexNowRequest(payload(['https://b.example:8443/en/blog/x', 'https://b.example:8443/en/']), {
      siteUrl: 'https://b.example:8443',
      indexNow: { key: 'k3y-0123456789', endpoint: 'https://api.indexnow.org/indexnow' },
    })
    expect(request.headers).toEqual({ 'Content-Type': 'application/json; charset=utf-8' })
    expect(JSON.parse(request.body)).toEqual({
      host: 'b.example:8443',
      key: 'k3y-0123456789',
      keyLocation: 'https://b.example:8443/k3y-0123456789.txt',
      urlList: ['https://b.example:8443/en/blog/x', 'https://b.example:8443/en/'],
    })
  })

  test('WebSub: hub.mode=publish&hub.url=<feed>, form-encoded', () => {
    const request = webSubRequest(payload(['https://b.example/en/rss.xml?x=1&y=2']))
    expect(request.headers).toEqual({ 'Content-Type': 'application/x-www-form-urlencoded' })
    expect(request.body).toBe('hub.mode=publish&hub.url=https%3A%2F%2Fb.example%2Fen%2Frss.xml%3Fx%3D1%26y%3D2')
  })

  test('settings: off by default, the key checked, one line naming the variable', () => {
    const config = loadConfig({})
    expect(config.indexNow).toEqual({ key: null, endpoint: 'https://api.indexnow.org/indexnow' })
    expect(config.webSubHub).toBeNull()
    expect(loadConfig({ INDEXNOW_KEY: 'abcdef-12', WEBSUB_HUB: 'https://hub.example/' })).toMatchObject({
      indexNow: { key: 'abcdef-12' },
      webSubHub: 'https://hub.example/',
    })
    for (const bad of ['short', 'has space in it', 'slash/../key', 'x'.repeat(129)])
      expect(() => loadConfig({ INDEXNOW_KEY: bad })).toThrow(/^INDEXNOW_KEY: /)
  })
})
