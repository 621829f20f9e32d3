import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Folio } from '../support/folio.ts'

export const HOSTILE_NAME_EN = `<script>alert("x")</script> Tom & Jerry's "Best" Box`
export const HOSTILE_NAME_ZH = '<img src=x onerror=alert(1)>猫和老鼠'

export const CATEGORIES = [
  { code: 'gear', nameEn: 'Gear', nameZh: '器材', iconUrl: 'https://images.example.org/gear.svg', sort: 2 },
  { code: 'audio', parentCode: 'gear', nameEn: 'Audio', nameZh: '音频', sort: 1 },
  { code: 'headphones', parentCode: 'audio', nameEn: 'Headphones', nameZh: '耳机', sort: 1 },
  { code: 'cables', parentCode: 'gear', nameEn: 'Cables', nameZh: '线材', sort: 2 },
  { code: 'books', nameEn: 'Books', nameZh: '图书', sort: 1 },
]

const resource = (productId: string, fields: Record<string, unknown>) => ({
  productId,
  nameZh: '',
  descriptionEn: '',
  descriptionZh: '',
  stock: 10,
  cnyPrice: 1000000,
  usdtPrice: 150000,
  sourceType: 1,
  status: 1,
  ...fields,
})

/** The catalogue the tests import; `ids` maps each productId to the id the import gave it. */
export const RESOURCES = [
  resource('H-100', {
    nameEn: 'Studio Headphones',
    nameZh: '录音室耳机',
    descriptionEn: '<p>Closed-back <strong>studio</strong> headphones &amp; a three&nbsp;metre cable.</p>',
    descriptionZh: '<p>封闭式<strong>监听</strong>耳机，附带长线。</p>',
    categoryCode: 'headphones',
    usdtPrice: 1299900,
  }),
  resource('CBL_USB', { nameEn: 'USB-C Cable, Pure Copper', nameZh: 'USB-C 数据线', categoryCode: 'cables' }),
  resource('BK-HIFI', {
    nameEn: 'Guide to Hi-Fi',
    nameZh: '《》',
    descriptionEn: '<h3>Listening rooms</h3><p>How rooms shape sound.</p>',
    categoryCode: 'books',
    sourceType: 2,
  }),
  resource('AMP-OLD', { nameEn: 'Vintage Amplifier', nameZh: '复古功放', categoryCode: 'audio', status: 2 }),
  resource('EAR-W', { nameEn: 'Wireless Earbuds', nameZh: '无线耳塞', categoryCode: 'headphones', status: 3, stock: 0 }),
  resource('HOSTILE', {
    nameEn: HOSTILE_NAME_EN,
    nameZh: HOSTILE_NAME_ZH,
    descriptionEn: '<p>Safe &amp; <script>steal()</script>sound</p>',
    categoryCode: 'books',
    usdtPrice: 5,
  }),
  resource('PCT-LIKE', { nameEn: '100% Wool Earpads', nameZh: '纯羊毛耳垫', categoryCode: 'headphones' }),
]

let files = 0
/** Writes an import file into a temp folder and returns its path. */
export function importFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-resources-'))
  const path = join(dir, `catalogue-${++files}.json`)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  return path
}

/** Imports through the real CLI; throws with its output when it fails. */
export async function importCatalogue(folio: Folio, content: unknown = { categories: CATEGORIES, resources: RESOURCES }) {
  const out = await folio.cli('resources', 'import', importFile(content))
  if (out.code !== 0) throw new Error(`import failed (${out.code}): ${out.stderr}`)
  return out.stdout
}

/** productId → internal id, read back through the search endpoint (every status). */
export async function idsByProductId(folio: Folio, token: string): Promise<Record<string, number>> {
  const ids: Record<string, number> = {}
  for (const status of [1, 2, 3]) {
    const page = await folio.call('POST', '/api/v1/blog/resources/search', { token, body: { status, size: 100 } })
    for (const r of page.body.data.records) ids[r.productId] = r.id
  }
  return ids
}
