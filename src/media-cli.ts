import { options, UsageError, type CliCommand } from './cli-args.ts'
import type { compose } from './main.ts'

type Service = Awaited<ReturnType<typeof compose>>

/**
 * `cli media variants [--missing]` (docs/media.md): responsive variants for media uploaded before
 * they existed (`--missing`: only those without; without it, every upload's made anew). One line
 * per image on stderr. Each image's variants land with the changes that re-render the posts,
 * pages, authors and header showing it (media/showing.ts), which the server renders.
 */
export const mediaCommands: Record<string, CliCommand<Service>> = {
  'media variants': async ({ mediaVariants }, args) => {
    const { values, positionals } = options(args, { missing: { type: 'boolean' } })
    if (positionals.length) throw new UsageError(`media variants takes no argument, got "${positionals[0]}"`)
    const counts = await mediaVariants.run(values.missing ?? false, (done, total, outcome) =>
      console.error(`media variants: ${done}/${total} ${outcome}`),
    )
    console.log(`media variants: ${counts.made} made, ${counts.had} already had them, ${counts.none} need none, ${counts.failed} failed`)
  },
}
