import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { join } from 'node:path'
import type { Browser, CDPSession, Page } from 'playwright-core'
import { launchChromium } from '../support/chromium.ts'
import { THROTTLE } from '../../src/modules/people/throttle.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { consoleClient, printedSetupUrl } from './support.ts'

// Passkeys in Chromium (docs/admin.md, "Passkeys"): one server, one browser with a CTAP2 virtual
// authenticator over CDP. Register, sign in with it, the owner's requirement for admins, the
// counter check, a removed passkey refused, the breach check at setup and password change.
setDefaultTimeout(60_000)
const OWNER = { name: 'Olive Owner', email: 'olive@example.org', password: 'a long and private passphrase' }
const ADMIN = { name: 'Adam Admin', email: 'adam@example.org', password: 'admins keep the lights on', role: 'admin' }

let folio: Folio
let browser: Browser
let page: Page
let cdp: CDPSession
let authenticatorId: string
/** The console as the browser sees it: WebAuthn wants a host name (SITE_URL's, localhost here), never an IP. */
let consoleUrl: string

/** Waits for an alert saying `text` (a new one, even where an older alert was shown before). */
const alertSays = (text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).waitFor()
const signOut = async () => {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await page.getByRole('heading', { name: 'Sign in' }).waitFor()
}
const signInWithPassword = async (who: { email: string; password: string }) => {
  await page.getByLabel('Email').fill(who.email)
  await page.getByLabel('Password').fill(who.password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}
/** Signed in, on whichever page the address names. */
const signedIn = () => page.getByRole('button', { name: 'Sign out', exact: true }).waitFor()
const toAccount = async () => {
  await page.getByRole('link', { name: 'Account' }).click()
  await page.getByRole('heading', { name: 'Passkeys' }).waitFor()
}
const auditActions = () => {
  const db = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
  try {
    return db
      .query<{ action: string }, []>('select action from audit_log order by id')
      .all()
      .map((r) => r.action)
  } finally {
    db.close()
  }
}

beforeAll(async () => {
  folio = await startFolio()
  consoleUrl = folio.url.replace('127.0.0.1', 'localhost')
  browser = await launchChromium()
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  page = await context.newPage()
  cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  ;({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }))
})
afterAll(async () => {
  await browser?.close()
  await folio?.dispose()
})

describe('passkeys', () => {
  test('setup refuses a breached password, naming the field; then makes the owner and an admin', async () => {
    const client = consoleClient(folio)
    const code = new URL(printedSetupUrl(folio)).searchParams.get('code')!
    const setup = { code, nameEn: 'Field Notes', nameZh: '田野笔记', ownerName: OWNER.name, email: OWNER.email }
    const breached = await client.call('POST', '/admin/api/setup', { ...setup, password: 'P@ssw0rd2024!' })
    expect(breached.status).toBe(400)
    expect(breached.body.code).toBe('PASSWORD_BREACHED')
    expect(breached.body.data.errors[0].field).toBe('password')
    expect((await client.call('POST', '/admin/api/setup', { ...setup, password: OWNER.password })).status).toBe(200)
    expect((await client.call('POST', '/admin/api/users/save', { ...ADMIN, password: 'dragondragon1' })).body.code).toBe(
      'PASSWORD_BREACHED',
    )
    expect((await client.call('POST', '/admin/api/users/save', ADMIN)).status).toBe(200)
    const change = await client.call('POST', '/admin/api/password', { current: OWNER.password, password: 'sunshine2023!!' })
    expect(change.body.code).toBe('PASSWORD_BREACHED')
    expect(
      (await client.call('POST', '/admin/api/password', { current: 'not my password', password: 'x'.repeat(20) })).body.data.errors[0]
        .field,
    ).toBe('current')
  })

  test('the owner adds a named passkey on the account page, signs out and signs in with it alone', async () => {
    await page.goto(`${consoleUrl}/admin/`)
    await signInWithPassword(OWNER)
    await signedIn()
    await toAccount()
    // Waited for: the list loads after the heading (isVisible() alone raced it on a busy box).
    await page.getByText('No passkeys yet.').waitFor()
    await page.getByLabel('Passkey name').fill('Work laptop')
    await page.getByRole('button', { name: 'Add passkey' }).click()
    await page.getByRole('button', { name: 'Remove Work laptop' }).waitFor()
    expect(await page.getByRole('region', { name: 'Passkeys' }).textContent()).toContain('Last used never')
    await signOut()
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await signedIn()
  })

  test('a cloned authenticator (its counter behind the stored one) is refused', async () => {
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    const original = credentials[0]!
    expect(original.signCount).toBeGreaterThan(0)
    await signOut()
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: original.credentialId })
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...original, signCount: 0 } })
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await alertSays(/could not be verified.*counter/)
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: original.credentialId })
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: original })
  })

  test('with the requirement on, an admin signing in with a password is asked for the passkey, or told how to get one', async () => {
    await page.getByLabel('Email').fill(OWNER.email)
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await signedIn()
    await toAccount()
    await page.getByRole('checkbox', { name: 'Require a passkey for admins' }).check()
    await page.getByRole('status').waitFor()
    await page.getByRole('button', { name: 'Remove Work laptop' }).click()
    await alertSays('your last passkey')
    await signOut()

    await signInWithPassword(OWNER)
    await page.getByRole('heading', { name: 'Confirm with your passkey' }).waitFor()
    await page.getByRole('button', { name: 'Use my passkey' }).click()
    await signedIn()
    await signOut()

    await signInWithPassword(ADMIN)
    await alertSays('this account has none yet')
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await alertSays('belongs to another account')
    expect(await page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true)
  })

  test('a removed passkey signs in no more; every step is in the audit log', async () => {
    expect((await folio.cli('admin', 'require-passkey', 'off')).code).toBe(0)
    await signInWithPassword(OWNER)
    await signedIn()
    await toAccount()
    await page.getByRole('button', { name: 'Remove Work laptop' }).click()
    await page.getByText('No passkeys yet.').waitFor()
    await signOut()
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await alertSays('not registered here')
    const actions = auditActions()
    for (const action of [
      'sign-in (passkey)',
      'sign-in failed (passkey)',
      'sign-in password ok: passkey asked',
      'sign-in (password and passkey)',
      'sign-in refused: passkey required, none registered',
      'POST /admin/api/passkeys/save',
      'POST /admin/api/security',
      'cli admin require-passkey off',
    ])
      expect(actions).toContain(action)
    expect(actions.filter((a) => a.startsWith('POST /admin/api/passkeys/') && a.endsWith('/remove')).length).toBe(2)
  })
  // Last: it uses up this address's failures for the rest of the window.
  test('failed passkey sign-ins are throttled like failed passwords, in the same count', async () => {
    const client = consoleClient(folio)
    const forged = {
      response: {
        id: 'bm90LWEtcGFzc2tleQ',
        rawId: 'bm90LWEtcGFzc2tleQ',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
        clientExtensionResults: {},
      },
    }
    // Earlier tests already failed a few times from this address: at most THROTTLE.perAddress more.
    const statuses: number[] = []
    for (let i = 0; i <= THROTTLE.perAddress && statuses.at(-1) !== 429; i++)
      statuses.push((await client.call('POST', '/admin/api/passkeys/sign-in', forged)).status)
    expect(statuses.at(-1)).toBe(429)
    expect(statuses.slice(0, -1).every((status) => status >= 400 && status < 500 && status !== 429)).toBe(true)
    const throttled = await client.call('POST', '/admin/api/passkeys/sign-in', forged)
    expect(throttled.body.code).toBe('SIGN_IN_THROTTLED')
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0)
    // One count for both ways in: the right password from this address waits too.
    const password = await client.call('POST', '/admin/api/sign-in', { email: OWNER.email, password: OWNER.password })
    expect(password.body.code).toBe('SIGN_IN_THROTTLED')
  })
})
