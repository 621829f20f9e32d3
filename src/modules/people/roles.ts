import type { Scope } from '../tokens/scopes.ts'

/**
 * A role is a set of the API's token scopes, nothing more: the console calls the same verbs with
 * the same checks as a token would, so a role can never reach what its scopes do not name.
 */
export const ROLE_SCOPES = {
  author: ['blog:read', 'blog:write'],
  editor: ['blog:read', 'blog:write', 'blog:publish'],
  admin: ['blog:read', 'blog:write', 'blog:publish', 'blog:admin'],
  owner: ['blog:read', 'blog:write', 'blog:publish', 'blog:admin'],
} as const satisfies Record<string, readonly Scope[]>

export type Role = keyof typeof ROLE_SCOPES
export const ROLES = Object.keys(ROLE_SCOPES) as Role[]
export const isRole = (value: string): value is Role => value in ROLE_SCOPES

export const scopesOf = (role: Role): ReadonlySet<Scope> => new Set(ROLE_SCOPES[role])

/** Admins manage people below owner; only an owner makes, changes or disables an owner. */
export const canManage = (actor: Role, target: Role): boolean => actor === 'owner' || (actor === 'admin' && target !== 'owner')
