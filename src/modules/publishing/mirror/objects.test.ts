import { describe, expect, test } from 'bun:test'
import { artifactKinds, type BlogSource } from '../../../kinds.ts'
import { ASSETS } from '../../site/assets.ts'
import { catalogue } from '../catalogue.ts'
import { objectsOf as objectsWith } from './objects.ts'

const CDN = 'public, max-age=0, must-revalidate, s-maxage=60, stale-while-revalidate=60'
// The kinds as the composition root registers them; what objects a file is needs no database.
const kinds = catalogue(
  artifactKinds({
    blog: { siteUrl: 'https://b.example', sitemapShardSize: 1000, openapi: '', engagementRefreshMs: 0 } as BlogSource,
    searchScript: '',
  }),
)
const objectsOf = (path: string, layout: { prefix: string; cacheControl: string }) => objectsWith(path, { ...layout, kinds })

describe('objectsOf', () => {
  test('an English post: main file and copies, each with its headers; no object for the ?language=en spelling', () => {
    const objects = objectsOf('api/v1/blog/posts/hello/@', { prefix: 'site/', cacheControl: CDN })
    expect(objects.map((o) => [o.key, o.file])).toEqual([
      ['site/api/v1/blog/posts/hello/@', 'api/v1/blog/posts/hello/@'],
      ['site/api/v1/blog/posts/hello/@.br', 'api/v1/blog/posts/hello/@.br'],
      ['site/api/v1/blog/posts/hello/@.gz', 'api/v1/blog/posts/hello/@.gz'],
    ])
    expect(objects[0]!.headers).toEqual({ 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': CDN })
    expect(objects[1]!.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Encoding': 'br' })
    expect(objects[2]!.headers['Content-Encoding']).toBe('gzip')
  })

  test('a page, a feed and a hashed asset keep the types and caching Caddy gives them', () => {
    expect(objectsOf('en/@', { prefix: '', cacheControl: CDN })[0]!.headers['Content-Type']).toStartWith('text/html')
    expect(objectsOf('api/v1/blog/sitemap.xml/@', { prefix: '', cacheControl: CDN })[0]!.headers['Content-Type']).toBe(
      'application/xml; charset=utf-8',
    )
    expect(objectsOf('@', { prefix: '', cacheControl: CDN }).map((o) => o.key)).toEqual(['@', '@.br', '@.gz'])
    const asset = objectsOf(`assets/${ASSETS.theme.file}/@`, { prefix: '', cacheControl: CDN })[0]!.headers
    expect(asset).toEqual({ 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=31536000, immutable' })
  })

  test('a file no artifact lives at (junk to delete) maps to its own keys only', () => {
    expect(objectsOf('api/v1/blog/junk', { prefix: '', cacheControl: CDN }).map((o) => o.key)).toEqual([
      'api/v1/blog/junk',
      'api/v1/blog/junk.br',
      'api/v1/blog/junk.gz',
    ])
  })
})
