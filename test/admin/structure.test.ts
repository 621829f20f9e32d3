import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { verify } from '../../src/modules/webhooks/sign.ts'
import corpus from '../security/corpus/html.json'
import { launchChromium } from '../support/chromium.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { startReceiver } from '../webhooks/receiver.ts'
import { axeViolations, watchForPayloads } from './browser.ts'
import { createUser } from './support.ts'

// The console's settings, categories, tags, authors, resources and audit pages, the owner's reply
// and the webhook ping and secret rotation (docs/admin.md): one server, one browser, one page.
setDefaultTimeout(60_000)
const ROOT = resolve(import.meta.dir, '../..')
const SHOTS = resolve(ROOT, 'docs/screenshots')
const COVER = resolve(ROOT, 'examples/cover.png')
const OWNER = { name: 'Olive Owner', email: 'olive@example.org', password: 'a long and private passphrase', role: 'owner' }

let folio: Folio
let browser: Browser
let page: Page
let token: string
let hits: string[]

async function shot(name: string) {
  if (process.env.SCREENSHOTS !== '1') return
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
}

/** Opens a console page by its navigation link and waits for its heading. */
async function open(link: string, heading = link) {
  await page.getByRole('link', { name: link, exact: true }).click()
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
}

const api = async (method: string, path: string, body?: unknown) => {
  const answer = await folio.call(method, path, { token, body })
  if (answer.body?.code !== '0000') throw new Error(`${method} ${path}: ${answer.text}`)
  return answer.body.data
}

beforeAll(async () => {
  folio = await startFolio({ WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_DELAYS: '50ms', RATE_LIMIT_PER_MINUTE: '100000' })
  const [launched, created, made] = await Promise.all([
    launchChromium(),
    createUser(folio, OWNER),
    folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin'),
  ])
  expect(created.code).toBe(0)
  browser = launched
  token = made
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  hits = await watchForPayloads(page)
  await page.goto(`${folio.url}/admin/`)
  await page.getByLabel('Email').fill(OWNER.email)
  await page.getByLabel('Password').fill(OWNER.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor()
})
afterAll(async () => {
  await browser?.close()
  await folio?.dispose()
})

describe('content structure', () => {
  test('settings: names, labels and an icon uploaded through the media endpoint', async () => {
    await open('Settings', 'Publication settings')
    await page.getByLabel('Name (English)').fill('Field Notes')
    await page.getByLabel('Name (Chinese)').fill('田野笔记')
    await page.getByLabel('Description (English)').fill('Notes from the field.')
    await page.getByLabel('Language label (Chinese)').fill('中文')
    await page.getByLabel('Upload image').setInputFiles(COVER)
    await page.waitForFunction(() => /\/media\//.test((document.getElementById('field-settings-iconUrl') as HTMLInputElement).value))
    await page.getByLabel('Icon text alternative').fill('The Field Notes logo')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved.').waitFor()
    const saved = (await folio.call('GET', '/api/v1/blog/publication-settings')).body.data
    expect(saved).toMatchObject({ nameEn: 'Field Notes', nameZh: '田野笔记', labelZh: '中文', iconAlt: 'The Field Notes logo' })
    expect((await fetch(`${folio.url}${new URL(saved.iconUrl).pathname}`)).status).toBe(200)
    expect(await axeViolations(page)).toEqual([])
    await shot('admin-settings')
  })

  test('categories: create, reorder, disable and enable again; the public list follows', async () => {
    await open('Categories')
    for (const name of ['Guides', 'Reviews']) {
      await page.getByLabel('Name (English)').fill(name)
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByRole('listitem', { name: name }).waitFor()
    }
    const reviews = page.getByRole('listitem', { name: 'Reviews' })
    await reviews.getByRole('button', { name: 'Edit' }).click()
    await expect(page.getByLabel('Name (English)').inputValue()).resolves.toBe('Reviews')
    await page.getByLabel('Order').fill('-1')
    await page.getByLabel('Name (Chinese)').fill('评测')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByRole('listitem', { name: 'Reviews / 评测' }).waitFor()
    const names = async () => ((await folio.call('GET', '/api/v1/blog/categories')).body.data as { nameEn: string }[]).map((c) => c.nameEn)
    expect(await names()).toEqual(['Reviews', 'Guides'])
    await page.getByRole('listitem', { name: 'Guides' }).getByRole('button', { name: 'Disable' }).click()
    await page.getByRole('listitem', { name: 'Guides' }).getByRole('button', { name: 'Enable' }).waitFor()
    expect(await names()).toEqual(['Reviews'])
    expect(await axeViolations(page)).toEqual([])
    await shot('admin-categories')
    await page.getByRole('listitem', { name: 'Guides' }).getByRole('button', { name: 'Enable' }).click()
    await page.getByRole('listitem', { name: 'Guides' }).getByRole('button', { name: 'Disable' }).waitFor()
    expect(await names()).toEqual(['Reviews', 'Guides'])
  })

  test('tags: create one for one language and disable it', async () => {
    await open('Tags')
    await page.getByLabel('Name (English)').fill('Static sites')
    await page.getByLabel('Content language').selectOption('en')
    await page.getByRole('button', { name: 'Save' }).click()
    const row = page.getByRole('listitem', { name: 'Static sites' })
    await row.getByRole('button', { name: 'Disable' }).click()
    await row.getByRole('button', { name: 'Enable' }).waitFor()
    expect(await api('GET', '/api/v1/blog/tags?language=en')).toEqual([])
    const all = await api('GET', '/api/admin/blog/tags')
    expect(all).toMatchObject([{ nameEn: 'Static sites', language: 'en', status: 0 }])
  })

  test('authors: create with an uploaded avatar, order, disable', async () => {
    await open('Authors')
    for (const name of ['Jane Doe', 'Li Lei']) {
      await page.getByLabel('Name', { exact: true }).fill(name)
      await page.getByLabel('Title').fill('Editor')
      if (name === 'Jane Doe') {
        await page.getByLabel('Upload image').setInputFiles(COVER)
        await page.waitForFunction(() => /\/media\//.test((document.getElementById('field-record-avatar') as HTMLInputElement).value))
      }
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByRole('listitem', { name: `${name} (en)` }).waitFor()
    }
    await page.getByRole('listitem', { name: 'Li Lei (en)' }).getByRole('button', { name: 'Edit' }).click()
    await page.getByLabel('Order').fill('-5')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.locator('.rows li').first().getByText('Li Lei').waitFor()
    const listed = (await api('GET', '/api/v1/blog/authors')) as { name: string; avatar: string }[]
    expect(listed.map((a) => a.name)).toEqual(['Li Lei', 'Jane Doe'])
    expect(listed[1]!.avatar).toContain('/media/')
    await page.getByRole('listitem', { name: 'Jane Doe (en)' }).getByRole('button', { name: 'Disable' }).click()
    await page.getByRole('listitem', { name: 'Jane Doe (en)' }).getByRole('button', { name: 'Enable' }).waitFor()
    expect(((await api('GET', '/api/v1/blog/authors')) as { name: string }[]).map((a) => a.name)).toEqual(['Li Lei'])
    expect(await axeViolations(page)).toEqual([])
    await shot('admin-authors')
  })

  test('resources: an import shows what changed; a faulty file is refused naming its fault', async () => {
    await open('Resources', 'Business resources')
    const file = page.getByLabel('Catalogue file (JSON)')
    await file.setInputFiles(resolve(ROOT, 'examples/resources.json'))
    await page.getByRole('button', { name: 'Import' }).click()
    const changed = page.getByRole('region', { name: 'What changed' })
    const row = changed.getByRole('row', { name: /^Resources \d+ 0 0$/ })
    await row.waitFor()
    const created = Number(await row.getByRole('cell').first().textContent())
    expect(created).toBeGreaterThan(0)
    await page.getByRole('region', { name: 'Resource categories' }).getByText('Routers').waitFor()
    // The same file again changes nothing.
    await page.getByRole('button', { name: 'Import' }).click()
    await changed.getByRole('row', { name: `Resources 0 0 ${created}` }).waitFor()
    await file.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"resources": [{"nameEn": 1}]}') })
    await page.getByRole('button', { name: 'Import' }).click()
    const refusal = await page.getByRole('alert').textContent()
    expect(refusal).toContain('broken.json refused, nothing imported')
    expect(refusal).toContain('resources[0].productId: is required')
    expect(await axeViolations(page)).toEqual([])
    await shot('admin-resources')
  })
})

describe('comments and webhooks', () => {
  test("the owner's reply is published approved under the comment, which it approves", async () => {
    const taxonomy = await seedTaxonomy(folio, token)
    const post = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    const sent = await folio.call('POST', `/api/v1/blog/posts/${post.id}/comments`, {
      body: { authorName: 'Reader', content: 'Does this work offline?' },
      headers: { 'x-forwarded-for': '10.7.0.1' },
    })
    expect(sent.body.code).toBe('0000')
    await open('Comments')
    const comment = page.locator('li.comment').first()
    await comment.getByRole('button', { name: 'Reply as owner' }).click()
    await comment.getByLabel('Your reply').fill('Yes: every page is a file.')
    await comment.getByRole('button', { name: 'Send reply' }).click()
    await page.getByText('No comments here.').waitFor()
    const shown = (await folio.call('GET', `/api/v1/blog/posts/${post.id}/engagement`)).body.data.comments as {
      authorName: string
      content: string
      parentId: number | null
    }[]
    expect(shown.map((c) => [c.authorName, c.content])).toEqual([
      ['Reader', 'Does this work offline?'],
      [OWNER.name, 'Yes: every page is a file.'],
    ])
  })

  test('a test ping arrives signed; a rotated secret is shown once and signs the next one', async () => {
    const receiver = startReceiver()
    try {
      const first = 'first-secret-0123456789'
      await api('POST', '/api/admin/blog/webhooks/save', { url: receiver.url('/hook'), events: ['blog.post.published'], secret: first })
      await open('Webhooks')
      const row = page.getByRole('listitem', { name: receiver.url('/hook') })
      await row.getByRole('button', { name: 'Send test ping' }).click()
      const [ping] = await receiver.waitFor('/hook', 1)
      expect(ping!.headers.get('x-folio-event')).toBe('blog.ping')
      expect(JSON.parse(ping!.body)).toMatchObject({ event: 'blog.ping', receiver: { url: receiver.url('/hook') } })
      expect(verify(first, ping!.headers.get('x-folio-signature'), ping!.body)).toBe(true)
      await row.getByRole('button', { name: 'Rotate secret' }).click()
      await page.getByText('shown only once').waitFor()
      const rotated = await page.getByLabel('Signing secret').inputValue()
      expect(rotated).toMatch(/^[0-9a-f]{64}$/)
      await row.getByRole('button', { name: 'Send test ping' }).click()
      const second = (await receiver.waitFor('/hook', 2))[1]!
      expect(verify(rotated, second.headers.get('x-folio-signature'), second.body)).toBe(true)
      expect(verify(first, second.headers.get('x-folio-signature'), second.body)).toBe(false)
      await page
        .getByRole('listitem', { name: /^Delivery \d+$/ })
        .first()
        .getByText('blog.ping')
        .waitFor()
    } finally {
      receiver.stop()
    }
  })
})

describe('the CLI in the first hour', () => {
  test('unique token names, a careful backup, one-line refusals, and --help naming every command', async () => {
    const base = join(folio.dataDir, '..')
    const archive = join(base, 'exists.tar.gz')
    writeFileSync(archive, 'an older archive')
    const [taken, missing, existing, option, command, help] = await Promise.all([
      folio.cli('token', 'create', '--name', 'test-blog:read+blog:write+blog:publish+blog:admin', '--scopes', 'blog:read'),
      folio.cli('backup', join(base, 'no-such-folder', 'b.tar.gz')),
      folio.cli('backup', archive),
      folio.cli('token', 'list', '--bogus'),
      folio.cli('frobnicate', 'now'),
      folio.cli('--help'),
    ])
    const refusal = (out: { code: number; stderr: string }) => {
      expect(out.code).not.toBe(0)
      expect(out.stderr.trim().split('\n')).toHaveLength(1)
      return out.stderr.trim()
    }
    expect(refusal(taken)).toContain('an active token is already named')
    expect(refusal(missing)).toContain('no such folder')
    expect(refusal(existing)).toContain('exists; pass --force to replace it')
    expect(refusal(option)).toBe('folio: unknown option --bogus for "token list" (token list --help lists them)')
    expect(refusal(command)).toBe('folio: unknown command "frobnicate now" (--help lists the commands)')
    for (const name of [
      'token create',
      'webhook ping ID',
      'webhook rotate-secret ID',
      'backup FILE.tar.gz [--force]',
      'npm run --silent mcp',
    ])
      expect(help.stdout).toContain(name)
    const forced = await folio.cli('backup', archive, '--force')
    expect(forced.code).toBe(0)
  })
})

describe('audit log and hostile text', () => {
  test('the audit log shows who did what from where, filtered by person, action and address', async () => {
    await open('Audit log')
    const table = page.locator('table')
    await table.getByText('POST /api/v1/blog/categories/save').first().waitFor()
    await expect(table.locator('tbody tr').first().textContent()).resolves.toContain(OWNER.name)
    await page.getByLabel('Action contains').fill('rotate-secret')
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1)
    await expect(table.locator('tbody tr').textContent()).resolves.toContain('127.0.0.1')
    await page.getByLabel('Address').fill('10.0.0.9')
    await page.getByText('No entry matches.').waitFor()
    await page.getByLabel('Address').fill('')
    await page.getByLabel('Action contains').fill('')
    await page.getByLabel('Person').selectOption({ label: `${OWNER.name} (${OWNER.email})` })
    await table.getByText('sign-in', { exact: true }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await shot('admin-audit')
  })

  test('the hostile corpus renders inert on the settings, categories, tags, authors, resources and audit pages', async () => {
    // Every payload is shown whole: packed into names of at most 200 characters, so the corpus takes
    // 19 records of each kind, not 37 (each save waits for its render pass).
    const names = corpus.reduce<string[]>((packed, payload) => {
      const joined = packed.length ? `${packed.at(-1)!} ${payload}` : ''
      if (joined && joined.length <= 200) packed[packed.length - 1] = joined
      else packed.push(payload)
      return packed
    }, [])
    const last = names.at(-1)!
    await api('POST', '/api/admin/blog/publication-settings/save', { nameEn: last, descriptionEn: last, iconAlt: last })
    // Sent together: concurrent saves share the render passes their answers wait for.
    await Promise.all(
      names.flatMap((name) => [
        api('POST', '/api/v1/blog/categories/save', { nameEn: name, nameZh: name, descriptionEn: name }),
        api('POST', '/api/v1/blog/tags/save', { nameEn: name, language: 'all' }),
        api('POST', '/api/v1/blog/authors/save', { name, language: 'en', bio: name, title: name }),
      ]),
    )
    const catalogue = { categories: corpus.map((payload, i) => ({ code: `hostile-${i}`, nameEn: payload, nameZh: payload })) }
    const form = new FormData()
    form.append('file', new Blob([JSON.stringify(catalogue)], { type: 'application/json' }), 'hostile.json')
    expect((await folio.call('POST', '/api/admin/blog/resources/import', { token, body: form })).body.code).toBe('0000')
    // A failed sign-in puts the typed email into the audit log's target.
    await fetch(`${folio.url}/admin/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: folio.url, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ email: `<img src=x onerror="window.__pwned('audit')">`, password: 'wrong' }),
    })
    for (const [link, heading] of [
      ['Settings', 'Publication settings'],
      ['Categories', 'Categories'],
      ['Tags', 'Tags'],
      ['Authors', 'Authors'],
      ['Resources', 'Business resources'],
      ['Audit log', 'Audit log'],
    ] as const) {
      await open(link, heading)
      if (link === 'Audit log') await page.getByText(`onerror="window.__pwned('audit')"`, { exact: false }).waitFor()
      else if (link === 'Settings') expect(await page.getByLabel('Name (English)').inputValue()).toBe(last)
      else await page.getByText(last, { exact: false }).first().waitFor()
    }
    await page.waitForTimeout(200)
    expect(hits).toEqual([])
  })
})

describe('import from the console (docs/import-export.md)', () => {
  test('a WordPress export uploaded, followed to its end, its report read and downloaded; a bad file fails in one line', async () => {
    await open('Import', 'Import a blog')
    await page.getByLabel('Import from').selectOption('wordpress')
    await page.getByLabel('Export file').setInputFiles(resolve(ROOT, 'test/fixtures/import/wordpress-small-export.xml'))
    await page.getByLabel('Posts’ language').selectOption('en')
    await page.getByRole('button', { name: 'Start import' }).click()
    // Polled until the server's background run ends: the heading is the deterministic signal.
    await page.getByRole('heading', { level: 2, name: /^Import finished/ }).waitFor()
    const counts = page.getByRole('region', { name: 'What was carried over' })
    const postsRow = counts.getByRole('row', { name: /^posts / })
    const created = Number(await postsRow.getByRole('cell').first().textContent())
    expect(created).toBeGreaterThan(0)
    await page.getByRole('region', { name: 'Needs a human' }).waitFor()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download the report (JSON)' }).click(),
    ])
    const report = JSON.parse(readFileSync((await download.path())!, 'utf8'))
    expect(report.counts.posts.created).toBe(created)
    expect(report.posts.length).toBe(created)
    // Every post of the report is a row of the page's post table, title and all.
    const table = page.getByRole('region', { name: 'Posts', exact: true })
    for (const post of report.posts) await table.getByRole('rowheader', { name: post.title, exact: true }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    await shot('admin-import')
    // The admin API behind it: private, listed, and the run's state kept in import_runs.
    const runs = await folio.call('GET', '/api/admin/blog/imports/', { token })
    expect(runs.headers.get('cache-control')).toContain('no-store')
    expect(runs.body.data[0]).toMatchObject({ format: 'wordpress', state: 'done', fileName: 'wordpress-small-export.xml' })
    expect((await folio.call('GET', '/api/admin/blog/imports/999', { token })).body.code).toBe('BLOG_NOT_FOUND')
    const blank = await folio.call('POST', '/api/admin/blog/imports/start', { token, body: new FormData() })
    expect(blank.status).toBe(400)

    // A file that is no Ghost export: the run fails with the reader's one line, nothing half-written.
    await page.getByLabel('Import from').selectOption('ghost')
    await page
      .getByLabel('Export file')
      .setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"db": [') })
    await page.getByRole('button', { name: 'Start import' }).click()
    await page.getByRole('heading', { level: 2, name: /^Import failed/ }).waitFor()
    expect(await page.getByRole('status').textContent()).toContain('not JSON')
    expect(hits).toEqual([])
  })
})
