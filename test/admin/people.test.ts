import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFolio, type Folio } from '../support/folio.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { addReceiver, startReceiver, TEST_ENV } from '../webhooks/receiver.ts'
import { cliWithInput, consoleClient, createUser, printedSetupUrl } from './support.ts'

// Sign-in and people over HTTP (docs/admin.md): first run, sessions, throttling, cross-site
// refusals, roles as scopes, and the `user` / `admin setup-url` commands. The browser side is
// test/admin/console.test.ts.
let folio: Folio
const OWNER = { email: 'owner@example.org', password: 'correct horse battery staple' }

beforeAll(async () => {
  folio = await startFolio({ ...TEST_ENV, TRUST_PROXY: '1' })
})
afterAll(async () => {
  await folio.dispose()
})

describe('first run', () => {
  test('the start prints one setup URL, and `admin setup-url` prints the same', async () => {
    const url = printedSetupUrl(folio)
    expect(url).toMatch(/\/admin\/setup\?code=[A-Za-z0-9_-]{32}$/)
    const again = await folio.cli('admin', 'setup-url')
    expect(again.code).toBe(0)
    expect(new URL(again.stdout.trim()).search).toBe(new URL(url).search)
  })

  test('without the code, or with a wrong one, setup refuses', async () => {
    const admin = consoleClient(folio)
    expect((await admin.call('GET', '/admin/api/setup')).status).toBe(400)
    expect((await admin.call('GET', '/admin/api/setup?code=')).status).toBe(403)
    const wrong = await admin.call('GET', '/admin/api/setup?code=guess')
    expect(wrong.status).toBe(403)
    expect(wrong.body.code).toBe('SETUP_REFUSED')
    const post = await admin.call('POST', '/admin/api/setup', {
      code: 'guess',
      nameEn: 'Blog',
      nameZh: '博客',
      ownerName: 'Olive',
      ...OWNER,
    })
    expect(post.status).toBe(403)
    expect((await folio.cli('user', 'list')).stdout.trim().split('\n')).toHaveLength(1)
  })

  test('the setup with the code makes the owner, names the site and signs in; the code is spent', async () => {
    const code = new URL(printedSetupUrl(folio)).searchParams.get('code')!
    const admin = consoleClient(folio)
    const check = await admin.call('GET', `/admin/api/setup?code=${code}`)
    expect(check.status).toBe(200)
    expect(check.body.data.siteUrlWarning).toContain('localhost')
    const weak = await admin.call('POST', '/admin/api/setup', {
      code,
      nameEn: 'Blog',
      nameZh: '博客',
      ownerName: 'Olive',
      email: OWNER.email,
      password: 'short',
    })
    expect(weak.status).toBe(400)
    expect(weak.body.data.errors[0].field).toBe('password')
    const done = await admin.call('POST', '/admin/api/setup', {
      code,
      nameEn: 'Field Notes',
      nameZh: '田野笔记',
      ownerName: 'Olive',
      ...OWNER,
    })
    expect(done.status).toBe(200)
    expect(done.setCookie).toMatch(/^folio_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/)
    const me = await admin.call('GET', '/admin/api/me')
    expect(me.body.data.user).toMatchObject({
      name: 'Olive',
      role: 'owner',
      scopes: ['blog:read', 'blog:write', 'blog:publish', 'blog:admin'],
    })
    expect(me.headers.get('cache-control')).toBe('private, no-store')
    const settings = await folio.call('GET', '/api/v1/blog/publication-settings')
    expect(settings.body.data).toMatchObject({ nameEn: 'Field Notes', nameZh: '田野笔记' })
    expect(
      (
        await admin.call('POST', '/admin/api/setup', {
          code,
          nameEn: 'X',
          nameZh: 'X',
          ownerName: 'Mallory',
          email: 'm@example.org',
          password: 'another long password',
        })
      ).status,
    ).toBe(403)
    expect((await folio.cli('admin', 'setup-url')).code).toBe(1)
  })
})

describe('sign-in and sessions', () => {
  test('a password sign-in makes a new session (no fixation); sign-out ends it', async () => {
    const admin = consoleClient(folio)
    admin.cookie = 'folio_session=planted_________________________________0'
    const signedIn = await admin.call('POST', '/admin/api/sign-in', OWNER)
    expect(signedIn.status).toBe(200)
    expect(admin.cookie).not.toContain('planted')
    const held = admin.cookie
    expect((await admin.call('GET', '/admin/api/sessions')).body.data.some((s: any) => s.current)).toBe(true)
    expect((await admin.call('POST', '/admin/api/sign-out')).status).toBe(200)
    admin.cookie = held
    expect((await admin.call('GET', '/admin/api/me')).status).toBe(401)
  })

  test('sign out everywhere ends every session of the account', async () => {
    const [a, b] = [consoleClient(folio), consoleClient(folio)]
    await a.call('POST', '/admin/api/sign-in', OWNER)
    await b.call('POST', '/admin/api/sign-in', OWNER)
    expect((await a.call('POST', '/admin/api/sign-out-everywhere')).status).toBe(200)
    expect((await b.call('GET', '/admin/api/me')).status).toBe(401)
  })

  test('failed sign-ins are throttled per account with a clear message', async () => {
    await createUser(folio, { email: 'victim@example.org', name: 'Vic', role: 'author', password: 'a long enough password here' })
    const admin = consoleClient(folio)
    for (let i = 0; i < 5; i++)
      expect(
        (await admin.call('POST', '/admin/api/sign-in', { email: 'victim@example.org', password: `wrong guess ${i}` })).body.code,
      ).toBe('SIGN_IN_FAILED')
    const throttled = await admin.call('POST', '/admin/api/sign-in', {
      email: 'victim@example.org',
      password: 'a long enough password here',
    })
    expect(throttled.status).toBe(429)
    expect(throttled.body.code).toBe('SIGN_IN_THROTTLED')
    expect(throttled.body.message).toMatch(/try again in \d+ min/)
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  test('a state-changing request from another site is refused, signed in or not', async () => {
    const admin = consoleClient(folio)
    await admin.call('POST', '/admin/api/sign-in', OWNER)
    const evil = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }
    expect((await admin.call('POST', '/admin/api/sign-out', undefined, evil)).body.code).toBe('CROSS_SITE_REFUSED')
    expect((await admin.call('POST', '/admin/api/sign-in', OWNER, evil)).status).toBe(403)
    const publish = await admin.call(
      'POST',
      '/api/admin/blog/publication-settings/save',
      { nameEn: 'Hijacked' },
      { origin: 'https://evil.example', 'sec-fetch-site': '' },
    )
    expect(publish.status).toBe(403)
    expect((await folio.call('GET', '/api/v1/blog/publication-settings')).body.data.nameEn).toBe('Field Notes')
    // With no Origin and no Sec-Fetch-Site (no browser sends a POST so), a cookie is not enough.
    const bare = await fetch(`${folio.url}/admin/api/sign-out`, { method: 'POST', headers: { cookie: admin.cookie } })
    expect(bare.status).toBe(403)
  })

  test('the session cookie is never accepted on the token-only GETs (operate, delete)', async () => {
    const admin = consoleClient(folio)
    await admin.call('POST', '/admin/api/sign-in', OWNER)
    for (const path of ['/api/v1/blog/posts/operate?id=1&status=2', '/api/v1/blog/posts/delete?id=1'])
      expect((await admin.call('GET', path)).status).toBe(401)
  })
})

describe('roles and people', () => {
  test('a role is its scopes: an author reaches write routes, never admin ones', async () => {
    const made = await createUser(folio, { email: 'ann@example.org', name: 'Ann', role: 'author', password: 'authors write long texts' })
    expect(made.stdout).toMatch(/^created user \d+ \(author, ann@example.org\)/)
    const ann = consoleClient(folio)
    await ann.call('POST', '/admin/api/sign-in', { email: 'ann@example.org', password: 'authors write long texts' })
    const category = await ann.call('POST', '/api/v1/blog/categories/save', { nameEn: 'Notes', nameZh: '笔记' })
    expect(category.body.code).toBe('0000')
    const settings = await ann.call('POST', '/api/admin/blog/publication-settings/save', { nameEn: 'Mine now' })
    expect(settings.status).toBe(403)
    expect((await ann.call('GET', '/admin/api/users')).status).toBe(403)
  })

  test('an admin cannot make an owner; every console write lands in the audit log', async () => {
    await createUser(folio, { email: 'adam@example.org', name: 'Adam', role: 'admin', password: 'admins keep the lights on' })
    const adam = consoleClient(folio)
    await adam.call('POST', '/admin/api/sign-in', { email: 'adam@example.org', password: 'admins keep the lights on' })
    const owner = await adam.call('POST', '/admin/api/users/save', {
      email: 'o2@example.org',
      name: 'O2',
      role: 'owner',
      password: 'yet another long password',
    })
    expect(owner.status).toBe(403)
    const editor = await adam.call('POST', '/admin/api/users/save', {
      email: 'ed@example.org',
      name: 'Ed',
      role: 'editor',
      password: 'editors edit everything',
    })
    expect(editor.body.data).toMatchObject({ role: 'editor', email: 'ed@example.org' })
    const db = new (await import('bun:sqlite')).Database(`${folio.dataDir}/folio.db`, { readonly: true })
    const rows = db.query("select action, status from audit_log where action like '%users/save'").all()
    db.close()
    expect(rows).toEqual([
      { action: 'POST /admin/api/users/save', status: 403 },
      { action: 'POST /admin/api/users/save', status: 200 },
    ])
  })

  test('user list, disable (its sessions end at once) and reset-password from the CLI', async () => {
    const ed = consoleClient(folio)
    await ed.call('POST', '/admin/api/sign-in', { email: 'ed@example.org', password: 'editors edit everything' })
    const list = await folio.cli('user', 'list')
    const id = list.stdout
      .split('\n')
      .find((line) => line.includes('ed@example.org'))!
      .split('\t')[0]!
    expect((await folio.cli('user', 'disable', id)).stdout).toContain('its sessions have ended')
    expect((await ed.call('GET', '/admin/api/me')).status).toBe(401)
    expect((await ed.call('POST', '/admin/api/sign-in', { email: 'ed@example.org', password: 'editors edit everything' })).status).toBe(401)
    const reset = await cliWithInput(folio, 'a brand new long password\n', 'user', 'reset-password', '1')
    expect(reset.code).toBe(0)
    expect(
      (await consoleClient(folio).call('POST', '/admin/api/sign-in', { email: OWNER.email, password: 'a brand new long password' })).status,
    ).toBe(200)
    const empty = await cliWithInput(folio, '', 'user', 'reset-password', '1')
    expect(empty.code).toBe(1)
    expect(empty.stderr).toContain('standard input')
    expect((await folio.cli('user', 'disable', '1')).stderr).toContain('last active owner')
  })
})

describe('comments for owners: the event and the CLI', () => {
  test('a new comment raises blog.comment.created (no email, no address); cli comments list|approve|reject', async () => {
    const receiver = startReceiver()
    try {
      const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
      await addReceiver(folio, token, { url: receiver.url('/comments'), events: ['blog.comment.created'] })
      await addReceiver(folio, token, { url: receiver.url('/all'), events: ['blog.*'] })
      const taxonomy = await seedTaxonomy(folio, token)
      const post = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
      const comment = (ip: string, content: string) =>
        folio.call('POST', `/api/v1/blog/posts/${post.id}/comments`, {
          body: { authorName: 'Reader', authorEmail: 'reader@example.org', content },
          headers: { 'x-forwarded-for': ip },
        })
      const first = await comment('10.1.2.3', 'A thoughtful question about the post.')
      await comment('10.1.2.4', 'Another reader agrees.')
      const [delivery] = await receiver.waitFor('/comments', 1)
      const payload = JSON.parse(delivery!.body)
      expect(payload).toMatchObject({
        event: 'blog.comment.created',
        comment: { id: first.body.data.id, authorName: 'Reader', content: 'A thoughtful question about the post.', status: 0 },
        post: { id: post.id, title: expect.any(String) },
        moderationUrl: 'http://localhost:3000/admin/comments',
      })
      expect(delivery!.body).not.toContain('reader@example.org')
      expect(delivery!.body).not.toContain('10.1.2.3')
      // `blog.*` means the post events it always meant: a wildcard receiver sees no comment event.
      await receiver.waitFor('/comments', 2)
      expect(receiver.on('/all').every((r) => !r.body.includes('blog.comment.created'))).toBe(true)

      const listed = await folio.cli('comments', 'list')
      expect(listed.stdout.split('\n')[0]).toBe('id\tstatus\tpost\tname\temail\tip\tspam reason\tcreated\ttext')
      expect(listed.stdout).toContain('reader@example.org\t10.1.2.3')
      const id = String(first.body.data.id)
      expect((await folio.cli('comments', 'approve', id)).stdout).toBe(`approved comment ${id} on post ${post.id}\n`)
      const second = listed.stdout.split('\n')[1]!.split('\t')[0]!
      expect((await folio.cli('comments', 'reject', second, '--spam')).stdout).toContain('as spam')
      expect((await folio.cli('comments', 'list', '--status', 'rejected')).stdout).toContain('marked as spam by a moderator')
      expect((await folio.cli('comments', 'list', '--status', 'nope')).stderr).toContain('--status must be')
    } finally {
      receiver.stop()
    }
  })
})
