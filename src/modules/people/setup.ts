import { randomBytes, timingSafeEqual } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { adminSetup } from '../../db/schema/index.ts'
import { DomainError } from '../../shared/errors.ts'
import { savePublicationSettings } from '../settings/settings.ts'
import { createUser, countUsers, type UserListing } from './users.ts'

/**
 * The first-run code: made while no account exists and kept until the owner is made, so the
 * server's start line and `cli admin setup-url` name the same URL. Null once anyone has an account.
 */
export function setupCode(db: Queryable): string | null {
  if (countUsers(db) > 0) return null
  const row = db.select().from(adminSetup).get()
  if (row) return row.code
  const code = randomBytes(24).toString('base64url')
  db.insert(adminSetup).values({ id: 1, code }).onConflictDoNothing().run()
  return db.select().from(adminSetup).get()!.code
}

/** The setup page's URL on `base` (the server's own address). */
export const setupUrl = (base: string, code: string): string => new URL(`/admin/setup?code=${code}`, base).href

export class SetupRefused extends DomainError {
  constructor(why: string) {
    super('SETUP_REFUSED', 403, why)
  }
}

/** Whether `code` is the live setup code (compared in constant time); throws SetupRefused otherwise. */
export function checkSetupCode(db: Queryable, code: string): void {
  if (countUsers(db) > 0) throw new SetupRefused('Setup is done: an account exists. Sign in instead.')
  const live = db.select().from(adminSetup).get()?.code
  const given = Buffer.from(code)
  if (!live || given.length !== live.length || !timingSafeEqual(given, Buffer.from(live)))
    throw new SetupRefused('This setup link is not valid. Print the current one with: npm run --silent cli -- admin setup-url')
}

export interface SetupReq {
  code: string
  nameEn: string
  nameZh: string
  ownerName: string
  email: string
  password: string
}

/** Makes the owner and names the publication; the code is spent in the same transaction. */
export async function completeSetup(ctx: Ctx, req: SetupReq): Promise<UserListing> {
  checkSetupCode(ctx.db, req.code)
  // The code is claimed before the (slow) password hash, so two setups racing make one owner.
  const claimed = ctx.db.delete(adminSetup).where(eq(adminSetup.code, req.code)).returning().get()
  if (!claimed) throw new SetupRefused('This setup link was just used.')
  let owner: UserListing
  try {
    owner = await createUser(ctx.db, { email: req.email, name: req.ownerName, role: 'owner', password: req.password })
  } catch (error) {
    ctx.db.insert(adminSetup).values(claimed).run()
    throw error
  }
  await savePublicationSettings(ctx, { nameEn: req.nameEn, nameZh: req.nameZh })
  return owner
}
