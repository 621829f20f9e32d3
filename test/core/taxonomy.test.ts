import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFolio, type Folio } from '../support/folio.ts'
import { publishablePost, publishNewPost } from '../support/fixtures.ts'

let folio: Folio
let token: string
beforeAll(async () => {
  folio = await startFolio()
  token = await folio.token('blog:write', 'blog:publish')
})
afterAll(() => folio.dispose())

const post = (path: string, body: unknown) => folio.call('POST', `/api/v1/blog/${path}`, { token, body })
const get = (path: string) => folio.call('GET', `/api/v1/blog/${path}`)

describe('categories', () => {
  test('create with a generated slug, update by id, public list of enabled ones in sort order', async () => {
    const a = (await post('categories/save', { nameEn: 'Deploy Guides', nameZh: '部署指南', sort: 2 })).body.data
    expect(a).toMatchObject({ slug: 'deploy-guides', nameEn: 'Deploy Guides', nameZh: '部署指南', sort: 2, status: 1, descriptionEn: '' })
    const b = (await post('categories/save', { nameEn: 'Alpha', sort: 1 })).body.data
    const hidden = (await post('categories/save', { nameEn: 'Hidden', status: 0 })).body.data
    const updated = (await post('categories/save', { id: a.id, nameEn: 'Deployment Guides', descriptionEn: 'How to ship.' })).body.data
    expect(updated).toMatchObject({
      id: a.id,
      slug: 'deploy-guides',
      nameEn: 'Deployment Guides',
      nameZh: '部署指南',
      descriptionEn: 'How to ship.',
    })
    const list = (await get('categories')).body.data.map((c: { id: number }) => c.id)
    expect(list.indexOf(b.id)).toBeLessThan(list.indexOf(a.id))
    expect(list).not.toContain(hidden.id)
  })

  test('slug rules: lower-cased, shape checked, duplicates named, Chinese names get pinyin', async () => {
    expect((await post('categories/save', { nameEn: 'X', slug: 'My-Slug' })).body.data.slug).toBe('my-slug')
    const dup = await post('categories/save', { nameEn: 'Y', slug: 'my-slug' })
    expect(dup.status).toBe(400)
    expect(dup.body).toMatchObject({ code: 'DUPLICATE_SLUG', data: { errors: [{ field: 'slug' }] } })
    const bad = await post('categories/save', { nameEn: 'Z', slug: 'not a slug!' })
    expect(bad.status).toBe(400)
    expect(bad.body.data.errors[0].field).toBe('slug')
    expect((await post('categories/save', { nameEn: '静态网站' })).body.data.slug).toBe('jing-tai-wang-zhan')
    expect((await post('categories/save', { nameEn: 'Deploy Guides' })).body.data.slug).toBe('deploy-guides-2')
  })

  test('bad requests', async () => {
    expect((await post('categories/save', { nameEn: '' })).body.data.errors[0].field).toBe('nameEn')
    expect((await post('categories/save', { nameEn: 'ok', status: 5 })).body.data.errors[0].field).toBe('status')
    expect((await post('categories/save', { id: 99999, nameEn: 'ok' })).body.code).toBe('BLOG_NOT_FOUND')
    expect((await folio.call('POST', '/api/v1/blog/categories/save', { body: { nameEn: 'anon' } })).status).toBe(401)
  })
})

describe('tags', () => {
  test('language filter: a language gives its tags and the neutral ones; all gives neutral ones', async () => {
    const en = (await post('tags/save', { nameEn: 'Hugo', language: 'en' })).body.data
    const zh = (await post('tags/save', { nameZh: '静态', language: 'zh' })).body.data
    const all = (await post('tags/save', { nameEn: 'SEO', nameZh: '搜索优化', language: 'all' })).body.data
    const off = (await post('tags/save', { nameEn: 'Off', language: 'en', status: 0 })).body.data
    expect(zh.slug).toBe('jing-tai')
    const ids = async (q: string) => (await get(`tags${q}`)).body.data.map((t: { id: number }) => t.id)
    expect(await ids('?language=en')).toEqual([en.id, all.id])
    expect(await ids('?language=zh')).toEqual([zh.id, all.id])
    expect(await ids('?language=all')).toEqual([all.id])
    expect(await ids('')).toEqual([en.id, zh.id, all.id])
    expect(await ids('')).not.toContain(off.id)
    expect((await get('tags?language=fr')).status).toBe(400)
  })

  test('a tag needs a name and a language', async () => {
    expect((await post('tags/save', { language: 'en' })).body.data.errors[0].field).toBe('nameEn')
    expect((await post('tags/save', { nameEn: 'x' })).body.data.errors[0].field).toBe('language')
  })
})

describe('authors', () => {
  test('save, list by language, detail, posts with default size 12 and postCount', async () => {
    const jane = (
      await post('authors/save', { name: 'Jane Roe', language: 'en', title: 'Editor', socialLinks: '{"x":"https://x.com/jane"}' })
    ).body.data
    const li = (await post('authors/save', { name: '李雷', language: 'zh' })).body.data
    expect(jane).toMatchObject({ slug: 'jane-roe', title: 'Editor', status: 1, postCount: 0 })
    expect(li.slug).toBe('li-lei')
    expect((await get('authors?language=zh')).body.data.map((a: { id: number }) => a.id)).toEqual([li.id])

    const categoryId = (await post('categories/save', { nameEn: 'For authors' })).body.data.id
    for (let i = 0; i < 13; i++) await publishNewPost(folio, token, publishablePost(categoryId, jane.id))
    const detail = (await get('authors/jane-roe')).body.data
    expect(detail.postCount).toBe(13)
    const page = (await get('authors/jane-roe/posts')).body.data
    expect(page).toMatchObject({ total: 13, size: 12, current: 1 })
    expect(page.records).toHaveLength(12)
    expect((await get('authors/jane-roe/posts?current=2')).body.data.records).toHaveLength(1)
    expect((await get('authors/jane-roe?language=zh')).body.code).toBe('BLOG_NOT_FOUND')
  })

  test('a disabled author is not public', async () => {
    const ghost = (await post('authors/save', { name: 'Ghost Writer', language: 'en', status: 0 })).body.data
    expect((await get('authors/ghost-writer')).status).toBe(400)
    expect((await get('authors/ghost-writer/posts')).status).toBe(400)
    expect((await get('authors')).body.data.map((a: { id: number }) => a.id)).not.toContain(ghost.id)
  })

  test('bad requests', async () => {
    expect((await post('authors/save', { name: 'x', language: 'fr' })).body.data.errors[0].field).toBe('language')
    expect((await post('authors/save', { language: 'en' })).body.data.errors[0].field).toBe('name')
    expect((await post('authors/save', { name: 'x', language: 'en', socialLinks: 'not json' })).body.data.errors[0].field).toBe(
      'socialLinks',
    )
  })
})

describe('publication settings', () => {
  // The spec's icon fields plus the public site's name, description and language labels (docs/site.md).
  const EMPTY = { iconUrl: '', iconAlt: '', nameEn: '', nameZh: '', descriptionEn: '', descriptionZh: '', labelEn: '', labelZh: '' }

  test('public read, admin-only write (endpoint and CLI)', async () => {
    expect((await get('publication-settings')).body.data).toEqual(EMPTY)
    const admin = await folio.token('blog:admin')
    const save = (t: string, body: unknown) => folio.call('POST', '/api/admin/blog/publication-settings/save', { token: t, body })
    expect((await save(token, { iconUrl: 'https://cdn.example.com/i.png' })).status).toBe(403)
    expect((await save(admin, { iconUrl: 'javascript:alert(1)' })).body.data.errors[0].field).toBe('iconUrl')
    expect((await save(admin, { nameEn: 'x'.repeat(10_000) })).body.data.errors[0].field).toBe('nameEn')
    expect((await save(admin, { iconUrl: 'https://cdn.example.com/i.png', iconAlt: 'Folio', nameEn: 'Field Notes' })).body.data).toEqual({
      ...EMPTY,
      iconUrl: 'https://cdn.example.com/i.png',
      iconAlt: 'Folio',
      nameEn: 'Field Notes',
    })
    const cli = await folio.cli('settings', 'set', '--icon-alt', 'Folio logo', '--name-zh', '田野笔记', '--label-zh', '简体中文')
    expect(cli.code).toBe(0)
    // The CLI records the jobs; the running server renders them.
    await folio.rendered()
    expect((await get('publication-settings')).body.data).toEqual({
      ...EMPTY,
      iconUrl: 'https://cdn.example.com/i.png',
      iconAlt: 'Folio logo',
      nameEn: 'Field Notes',
      nameZh: '田野笔记',
      labelZh: '简体中文',
    })
  })
})
