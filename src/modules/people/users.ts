import { and, eq, isNull, ne, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { sessions, users } from '../../db/schema/index.ts'
import { DomainError, invalidField, NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import { checkPassword, hashPassword, passwordMatches } from './passwords.ts'
import { isRole, ROLES, type Role } from './roles.ts'

export interface NewUser {
  email: string
  name: string
  role: string
  password: string
}

export interface UserListing {
  id: number
  email: string
  name: string
  role: Role
  disabled: boolean
  createTime: string
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/

/** The account's address, trimmed and lower-cased: one person, one spelling. */
const normalEmail = (email: string) => email.trim().toLowerCase()

export async function createUser(db: Queryable, input: NewUser): Promise<UserListing> {
  const email = normalEmail(input.email)
  const name = input.name.trim()
  if (!EMAIL.test(email)) throw invalidField('email', 'an email address like name@example.org')
  if (!name || name.length > 100) throw invalidField('name', 'between 1 and 100 characters')
  if (!isRole(input.role)) throw invalidField('role', `one of ${ROLES.join(', ')}`)
  await checkPassword(input.password, 'password', [name, email.split('@')[0]!])
  const passwordHash = await hashPassword(input.password)
  const taken = db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()
  if (taken) throw invalidField('email', 'an account with this email exists', 'USER_EXISTS')
  const row = db.insert(users).values({ email, name, role: input.role, passwordHash }).returning().get()
  return present(row)
}

const present = (row: typeof users.$inferSelect): UserListing => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role as Role,
  disabled: row.disabledAt !== null,
  createTime: row.createdAt,
})

export const listUsers = (db: Queryable): UserListing[] => db.select().from(users).orderBy(users.id).all().map(present)

export const countUsers = (db: Queryable): number =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .get()!.n

export function findUser(db: Queryable, id: number): UserListing {
  const row = db.select().from(users).where(eq(users.id, id)).get()
  if (!row) throw new NotFound('user', id)
  return present(row)
}

/** The account with this email, with its hash, for sign-in; null when unknown. */
export const userByEmail = (db: Queryable, email: string) =>
  db
    .select()
    .from(users)
    .where(eq(users.email, normalEmail(email)))
    .get() ?? null

/** Disables the account and ends every one of its sessions in the same transaction. */
export function disableUser(db: Queryable, id: number, now: Date): UserListing {
  const user = findUser(db, id)
  if (user.role === 'owner' && !otherActiveOwner(db, id))
    throw new DomainError('LAST_OWNER', 409, 'The last active owner cannot be disabled; make another owner first.')
  db.update(users)
    .set({ disabledAt: formatTime(now) })
    .where(and(eq(users.id, id), isNull(users.disabledAt)))
    .run()
  db.delete(sessions).where(eq(sessions.userId, id)).run()
  return findUser(db, id)
}

const otherActiveOwner = (db: Queryable, id: number) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'owner'), isNull(users.disabledAt), sql`${users.id} != ${id}`))
    .get() !== undefined

/** A new password; every session of the account ends (but `keepSessionId`'s), so a stolen one is shut out. */
export async function resetPassword(db: Queryable, id: number, password: string, keepSessionId?: number): Promise<void> {
  const user = findUser(db, id)
  await checkPassword(password, 'password', [user.name, user.email.split('@')[0]!])
  const passwordHash = await hashPassword(password)
  db.update(users).set({ passwordHash }).where(eq(users.id, id)).run()
  db.delete(sessions)
    .where(and(eq(sessions.userId, id), keepSessionId === undefined ? undefined : ne(sessions.id, keepSessionId)))
    .run()
}

/** The account's own change: the current password first, then as a reset that keeps this session. */
export async function changePassword(db: Queryable, session: { userId: number; sessionId: number }, current: string, next: string) {
  const row = db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, session.userId)).get()
  if (!(await passwordMatches(current, row?.hash ?? null))) throw invalidField('current', 'this is not your current password')
  await resetPassword(db, session.userId, next, session.sessionId)
}
