import { options, positiveId, UsageError, type CliCommand } from './cli-args.ts'
import type { CliService } from './cli-service.ts'
import { createToken, listTokens, parseScopes, revokeToken } from './modules/tokens/tokens.ts'

/** `cli token create|list|revoke` (docs/tokens.md): the API's tokens, for the shell's owner. */
export const tokenCommands: Record<string, CliCommand<CliService>> = {
  'token create': ({ ctx }, args) => {
    const { values } = options(args, { name: { type: 'string' }, scopes: { type: 'string' } })
    if (!values.name) throw new UsageError('token create needs --name')
    const { id, token } = createToken(ctx.db, values.name, parseScopes(values.scopes ?? ''))
    // The token alone on stdout (`TOKEN=$(… token create …)` captures it); the person at the
    // terminal, whose stderr is not captured, also reads its id and that it is shown once.
    console.log(token)
    if (process.stderr.isTTY) console.error(`created token ${id}; it is shown only this once: store it now (token list shows it masked)`)
  },
  'token list': ({ ctx }, args) => {
    options(args, {}) // no options: an unknown one is refused, not ignored
    console.log(['id', 'name', 'token', 'scopes', 'created', 'last used', 'state'].join('\t'))
    for (const t of listTokens(ctx.db)) {
      console.log(
        [
          t.id,
          t.name,
          t.maskedToken,
          t.scopes.join(','),
          t.createTime,
          t.lastUsedAt ?? 'never used',
          t.revoked ? 'revoked' : 'active',
        ].join('\t'),
      )
    }
  },
  'token revoke': ({ ctx }, args) => {
    revokeToken(ctx.db, positiveId(args[0]), ctx.clock())
    console.log(`revoked token ${args[0]}`)
  },
}
