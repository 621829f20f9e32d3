import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join, resolve } from 'node:path'
import { startFolio, type Folio } from '../support/folio.ts'
import { CATEGORIES, idsByProductId, importCatalogue, importFile, RESOURCES } from './catalogue.ts'

let folio: Folio
let read: string

const tree = async () => (await folio.call('GET', '/api/v1/blog/resources/categories', { token: read })).body.data
const everything = async () => {
  const records = []
  for (const status of [1, 2, 3])
    records.push(
      ...(await folio.call('POST', '/api/v1/blog/resources/search', { token: read, body: { status, size: 100 } })).body.data.records,
    )
  return records.sort((a, b) => a.id - b.id)
}
/** Imports a file that must be refused; returns stderr after checking nothing changed. */
async function refused(content: unknown): Promise<string> {
  const [treeBefore, before] = [await tree(), await everything()]
  const out = await folio.cli('resources', 'import', importFile(content))
  expect(out.code).not.toBe(0)
  expect(out.stderr).toContain('nothing imported')
  expect(await tree()).toEqual(treeBefore)
  expect(await everything()).toEqual(before)
  return out.stderr
}

beforeAll(async () => {
  folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '100000' })
  read = await folio.token('blog:read')
})
afterAll(() => folio.dispose())

describe('resources import', () => {
  test('the shipped example file imports', async () => {
    const out = await folio.cli('resources', 'import', join(resolve(import.meta.dir, '..', '..'), 'examples', 'resources.json'))
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('categories: 8 created')
    expect(out.stdout).toContain('resources: 6 created')
  })

  test('prints created counts, then re-import updates instead of duplicating', async () => {
    expect(await importCatalogue(folio)).toBe(
      `categories: ${CATEGORIES.length} created, 0 updated, 0 unchanged\nresources: ${RESOURCES.length} created, 0 updated, 0 unchanged\n`,
    )
    const ids = await idsByProductId(folio, read)
    const first = await everything()

    expect(await importCatalogue(folio)).toContain(`resources: 0 created, 0 updated, ${RESOURCES.length} unchanged`)
    expect(await everything()).toEqual(first)

    const changed = RESOURCES.map((r) => (r.productId === 'H-100' ? { ...r, usdtPrice: 1099900, nameEn: 'Studio Headphones II' } : r))
    const moved = CATEGORIES.map((c) => (c.code === 'cables' ? { ...c, parentCode: 'audio' } : c))
    const added = { ...RESOURCES[1]!, productId: 'NEW-1', nameEn: 'Optical Cable' }
    expect(await importCatalogue(folio, { categories: moved, resources: [...changed, added] })).toBe(
      `categories: 0 created, 1 updated, ${CATEGORIES.length - 1} unchanged\nresources: 1 created, 1 updated, ${RESOURCES.length - 1} unchanged\n`,
    )
    const after = await idsByProductId(folio, read)
    for (const [productId, id] of Object.entries(ids)) expect(after[productId]).toBe(id)
    const h100 = (await everything()).find((r) => r.productId === 'H-100')
    expect(h100).toMatchObject({ id: ids['H-100'], nameEn: 'Studio Headphones II', usdtPrice: 1099900, displayPriceText: '109.99' })
    const audio = (await tree()).find((c: any) => c.code === 'gear').children.find((c: any) => c.code === 'audio')
    expect(audio.children.map((c: any) => c.code)).toEqual(['headphones', 'cables'])
  })

  test('a file with only resources may name categories already in the database', async () => {
    const extra = { ...RESOURCES[0]!, productId: 'ONLY-RES', nameEn: 'Monitor Stand', categoryCode: 'books' }
    expect(await importCatalogue(folio, { resources: [extra] })).toContain('resources: 1 created')
  })
})

describe('a bad file is refused whole, naming the record, and nothing changes', () => {
  const good = (productId: string) => ({ ...RESOURCES[0]!, productId, nameEn: `Fresh ${productId}` })

  test('a shape error names the record and field', async () => {
    const stderr = await refused({
      categories: [{ code: 'fresh-cat', nameEn: 'Fresh' }],
      resources: [good('F-1'), good('F-2'), good('F-3'), { ...good('F-4'), usdtPrice: 12.5 }],
    })
    expect(stderr).toContain('resources[3].usdtPrice: expected integer (productId "F-4")')
    const missing = await refused({ resources: [{ productId: 'F-5', nameEn: 'x' }] })
    expect(missing).toContain('resources[0].categoryCode: is required')
    expect(await refused({ resources: [{ ...good('F-6'), status: 9 }] })).toContain(
      'resources[0].status: expected 1 (active), 2 (offline) or 3',
    )
    expect(await refused({ resources: [{ ...good('F-7'), usdt_price: 1 }] })).toContain('resources[0].usdt_price: is not a field')
    expect(await refused({ categories: [{ code: 'bad code', nameEn: 'x' }] })).toContain('categories[0].code: expected a code')
    expect(await refused({ categories: [{ code: 'ok', nameEn: 'x', iconUrl: 'javascript:alert(1)' }] })).toContain('categories[0].iconUrl')
  })

  test('invalid JSON names the line and column', async () => {
    const stderr = await refused('{\n  "resources": [\n    {"productId": "P1",}\n  ]\n}\n')
    expect(stderr).toContain('line 3, column 24')
  })

  test('unknown category codes and repeated keys are refused', async () => {
    expect(await refused({ resources: [{ ...good('F-8'), categoryCode: 'nowhere' }] })).toContain(
      'resources[0].categoryCode: no category "nowhere" in the file or the database',
    )
    expect(await refused({ categories: [{ code: 'x1', parentCode: 'nowhere', nameEn: 'X' }] })).toContain(
      'categories[0].parentCode: no category "nowhere"',
    )
    expect(await refused({ resources: [good('F-9'), good('F-10'), good('F-9')] })).toContain(
      'resources[2].productId: duplicate of resources[0]',
    )
    expect(
      await refused({
        categories: [
          { code: 'd1', nameEn: 'D' },
          { code: 'd1', nameEn: 'D again' },
        ],
      }),
    ).toContain('categories[1].code: duplicate of categories[0]')
  })

  test('parent cycles are refused, in the file and together with stored categories', async () => {
    expect(
      await refused({
        categories: [
          { code: 'c1', parentCode: 'c2', nameEn: 'C1' },
          { code: 'c2', parentCode: 'c1', nameEn: 'C2' },
        ],
      }),
    ).toContain('the parent chain loops: c1 -> c2 -> c1')
    expect(await refused({ categories: [{ code: 'self', parentCode: 'self', nameEn: 'S' }] })).toContain('self -> self')
    // Stored: headphones -> audio -> gear. Hanging gear under headphones would close a loop.
    expect(await refused({ categories: [{ code: 'gear', parentCode: 'headphones', nameEn: 'Gear' }] })).toContain(
      'gear -> headphones -> audio -> gear',
    )
  })

  test('a missing file and a missing argument exit non-zero', async () => {
    const missing = await folio.cli('resources', 'import', '/nonexistent/catalogue.json')
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain('no such file')
    const bare = await folio.cli('resources', 'import')
    expect(bare.code).not.toBe(0)
    expect(bare.stderr).toContain('FILE.json')
  })
})
