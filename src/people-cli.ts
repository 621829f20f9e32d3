import { options, positiveId, stdinLine, UsageError, type CliCommand } from './cli-args.ts'
import type { CliService } from './cli-service.ts'
import { recordAudit } from './modules/people/audit.ts'
import { createUser, disableUser, listUsers, resetPassword } from './modules/people/users.ts'

/** `cli user …`, `cli admin setup-url` and `cli admin require-passkey` (docs/admin.md): the console's people, for scripts. */
export const peopleCommands: Record<string, CliCommand<CliService>> = {
  'user create': async ({ ctx }, args) => {
    const { values } = options(args, { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } })
    if (!values.email || !values.name || !values.role) throw new UsageError('user create needs --email, --name and --role')
    const password = await stdinLine('the password')
    const user = await createUser(ctx.db, { email: values.email, name: values.name, role: values.role, password })
    console.log(`created user ${user.id} (${user.role}, ${user.email})`)
  },
  'user list': ({ ctx }) => {
    console.log(['id', 'email', 'name', 'role', 'created', 'state'].join('\t'))
    for (const u of listUsers(ctx.db))
      console.log([u.id, u.email, u.name, u.role, u.createTime, u.disabled ? 'disabled' : 'active'].join('\t'))
  },
  'user disable': ({ ctx }, args) => {
    const user = disableUser(ctx.db, positiveId(args[0]), ctx.clock())
    console.log(`disabled user ${user.id} (${user.email}); its sessions have ended`)
  },
  'user reset-password': async ({ ctx }, args) => {
    const id = positiveId(args[0])
    await resetPassword(ctx.db, id, await stdinLine('the new password'))
    console.log(`reset the password of user ${id}; its sessions have ended`)
  },
  // The way back in when the owner's passkeys are lost: the shell's owner decides, no passkey asked.
  // The admin commands load their modules when they run, so `user list` stays light (cli.ts).
  'admin require-passkey': async ({ ctx }, args) => {
    if (args[0] !== 'on' && args[0] !== 'off') throw new UsageError('admin require-passkey needs on or off')
    const { setRequirePasskeyForAdmins } = await import('./modules/people/passkey-policy.ts')
    const on = setRequirePasskeyForAdmins(ctx.db, args[0] === 'on', null, ctx.clock())
    recordAudit(ctx.db, { userId: null, action: `cli admin require-passkey ${args[0]}`, ip: 'cli' }, ctx.clock())
    console.log(on ? 'admins and owners must now confirm a password sign-in with a passkey' : 'a passkey is no longer required for admins')
  },
  'admin setup-url': async ({ ctx }) => {
    const { setupCode, setupUrl } = await import('./modules/people/setup.ts')
    const code = setupCode(ctx.db)
    if (!code) throw new UsageError('setup is done: an account exists (sign in, or add one with `user create`)')
    console.log(setupUrl(`http://${ctx.config.host}:${ctx.config.port}`, code))
  },
}
