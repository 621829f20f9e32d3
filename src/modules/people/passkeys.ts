import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server'
import { and, desc, eq } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { passkeys, users } from '../../db/schema/index.ts'
import { DomainError, NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import { createChallenges, type ChallengePurpose } from './challenges.ts'

/** Imported on the first ceremony: the library (and its ASN.1 and CBOR parsers) would otherwise slow every start and CLI command. */
let library: Promise<typeof import('@simplewebauthn/server')> | null = null
const webauthn = () => (library ??= import('@simplewebauthn/server'))

export class PasskeyRefused extends DomainError {
  constructor(message: string, code = 'PASSKEY_REFUSED', status = 400) {
    super(code, status, message)
  }
}

/**
 * The origin a passkey ceremony runs on (the `Origin` the browser sent), if passkeys can work
 * there: WebAuthn binds a passkey to a host name (the RP ID, SITE_URL's host), usable on that host
 * and its subdomains only, never on an IP address (docs/admin.md, "Passkeys").
 */
export function ceremonyOrigin(rpId: string, origin: string | null): string {
  let host = ''
  try {
    host = new URL(origin ?? '').hostname
  } catch {
    // no usable origin: refused below
  }
  if (!origin || (host !== rpId && !host.endsWith(`.${rpId}`)))
    throw new PasskeyRefused(
      `Passkeys belong to SITE_URL's host (${rpId}): open the console on ${rpId} (or a subdomain of it), or set SITE_URL to the address you use.`,
      'PASSKEY_ORIGIN',
    )
  return origin
}

/** The challenge a browser signed, read from its client data (verified against the stored one after). */
function signedChallenge(clientDataJSON: string): string {
  try {
    const challenge = (JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown }).challenge
    if (typeof challenge === 'string') return challenge
  } catch {
    // malformed: refused below
  }
  throw new PasskeyRefused('The passkey answer is malformed.')
}

const transportsOf = (row: { transports: string }) => (row.transports ? (row.transports.split(',') as AuthenticatorTransport[]) : undefined)

export const listPasskeys = (db: Queryable, userId: number) =>
  db
    .select({ id: passkeys.id, name: passkeys.name, createTime: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(desc(passkeys.id))
    .all()

const credentialsOf = (db: Queryable, userId: number) =>
  db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .all()
    .map((row) => ({ id: row.id, transports: transportsOf(row) }))

export const countPasskeys = (db: Queryable, userId: number): number => credentialsOf(db, userId).length

export function removePasskey(db: Queryable, userId: number, id: number): string {
  const removed = db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ name: passkeys.name })
    .get()
  if (!removed) throw new NotFound('passkey', id)
  return removed.name
}

/**
 * Passkeys (WebAuthn) for the console: registration and sign-in ceremonies with single-use
 * challenges, user verification required, and the signature counter checked and advanced in one
 * conditional update (a cloned authenticator replaying an old counter is refused).
 */
export function createPasskeys(ctx: Ctx) {
  const rpID = new URL(ctx.config.siteUrl).hostname
  const challenges = createChallenges(ctx.clock)
  const spend = (clientDataJSON: string, kind: ChallengePurpose['kind']) => {
    const challenge = signedChallenge(clientDataJSON)
    const purpose = challenges.take(challenge)
    if (!purpose || purpose.kind !== kind) throw new PasskeyRefused('This passkey request expired or was already used; try again.')
    return { challenge, purpose }
  }
  const failed = (error: unknown): never => {
    if (error instanceof DomainError) throw error
    throw new PasskeyRefused(`The passkey could not be verified: ${String((error as Error)?.message ?? error).slice(0, 200)}`)
  }

  return {
    rpID,
    async registrationOptions(user: { userId: number; email: string; name: string }, origin: string | null) {
      const lib = await webauthn()
      ceremonyOrigin(rpID, origin)
      const options = await lib.generateRegistrationOptions({
        rpName: 'Folio',
        rpID,
        userName: user.email,
        userDisplayName: user.name,
        userID: new TextEncoder().encode(`folio-user-${user.userId}`),
        attestationType: 'none',
        excludeCredentials: credentialsOf(ctx.db, user.userId),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      })
      challenges.remember(options.challenge, { kind: 'register', userId: user.userId })
      return options
    },

    /** Verifies a new passkey and stores it under `name` for the account that asked for the options. */
    async add(userId: number, name: string, response: RegistrationResponseJSON, origin: string | null) {
      const lib = await webauthn()
      const expectedOrigin = ceremonyOrigin(rpID, origin)
      const { challenge, purpose } = spend(response.response.clientDataJSON, 'register')
      if (purpose.kind !== 'register' || purpose.userId !== userId)
        throw new PasskeyRefused('This passkey request belongs to another session.')
      const verified = await lib
        .verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin,
          expectedRPID: rpID,
          requireUserVerification: true,
        })
        .catch(failed)
      if (!verified.verified) throw new PasskeyRefused('The passkey could not be verified.')
      const { credential } = verified.registrationInfo
      const row = ctx.db
        .insert(passkeys)
        .values({
          userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: (credential.transports ?? []).join(','),
          name: name.trim(),
          createdAt: formatTime(ctx.clock()),
        })
        .onConflictDoNothing()
        .returning({ id: passkeys.id, name: passkeys.name, createTime: passkeys.createdAt })
        .get()
      if (!row) throw new PasskeyRefused('This passkey is already registered.', 'PASSKEY_EXISTS', 409)
      return row
    },

    /**
     * Options for a sign-in: any discoverable passkey, or only `userId`'s (by email, or after a
     * password). The browser is told which credentials to offer only after a password: by email
     * alone, listing them would tell anyone which accounts exist and hold passkeys, so the account
     * is checked when the answer comes back instead.
     */
    async signInOptions(origin: string | null, userId: number | null, secondFactor = false) {
      const lib = await webauthn()
      ceremonyOrigin(rpID, origin)
      const options = await lib.generateAuthenticationOptions({
        rpID,
        userVerification: 'required',
        allowCredentials: secondFactor && userId !== null ? credentialsOf(ctx.db, userId) : [],
      })
      challenges.remember(options.challenge, { kind: 'sign-in', userId, secondFactor })
      return options
    },

    /** The account a passkey assertion proves, with whether it finished a password sign-in. */
    async verifySignIn(response: AuthenticationResponseJSON, origin: string | null) {
      const lib = await webauthn()
      const expectedOrigin = ceremonyOrigin(rpID, origin)
      const { challenge, purpose } = spend(response.response.clientDataJSON, 'sign-in')
      const row = ctx.db
        .select({ passkey: passkeys, user: users })
        .from(passkeys)
        .innerJoin(users, eq(users.id, passkeys.userId))
        .where(eq(passkeys.credentialId, response.id))
        .get()
      if (!row) throw new PasskeyRefused('This passkey is not registered here (it may have been removed).', 'PASSKEY_UNKNOWN', 401)
      const secondFactor = purpose.kind === 'sign-in' && purpose.secondFactor
      if (purpose.kind === 'sign-in' && purpose.userId !== null && purpose.userId !== row.user.id)
        throw new PasskeyRefused('This passkey belongs to another account.', 'PASSKEY_UNKNOWN', 401)
      if (row.user.disabledAt !== null) throw new PasskeyRefused('This account is disabled.', 'SIGN_IN_FAILED', 401)
      const { passkey } = row
      const verified = await lib
        .verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin,
          expectedRPID: rpID,
          requireUserVerification: true,
          credential: {
            id: passkey.credentialId,
            publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
            counter: passkey.counter,
            transports: transportsOf(passkey),
          },
        })
        .catch(failed)
      if (!verified.verified) throw new PasskeyRefused('The passkey could not be verified.')
      // The counter moves only from the value just checked: two answers racing cannot both pass.
      const advanced = ctx.db
        .update(passkeys)
        .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: formatTime(ctx.clock()) })
        .where(and(eq(passkeys.id, passkey.id), eq(passkeys.counter, passkey.counter)))
        .returning({ id: passkeys.id })
        .get()
      if (!advanced) throw new PasskeyRefused('The passkey was used twice at once; try again.')
      return { user: row.user, passkeyName: passkey.name, secondFactor }
    },
  }
}
export type Passkeys = ReturnType<typeof createPasskeys>
