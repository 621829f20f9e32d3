/** Token scopes of the spec (§5.5) plus the admin scope of operations.md. */
export const SCOPES = ['blog:read', 'blog:write', 'blog:publish', 'blog:admin'] as const
export type Scope = (typeof SCOPES)[number]

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value)
