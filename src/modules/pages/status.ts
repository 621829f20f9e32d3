import { eq } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import { pages } from '../../db/schema/index.ts'
import type { ChangeEffects } from '../../shared/changes.ts'
import { formatTime } from '../../shared/time.ts'
import type { PageRes } from './model.ts'
import { PAGE_STATUS } from './terms.ts'
import { pageById, toPageRes } from './repo.ts'
import { expectPageVersion, updatePage } from './save.ts'

type Answer = { page: PageRes; artifactsFailed: number }

/**
 * `POST pages/{id}/publish` and `…/unpublish`: moves a page to the status; a page already there
 * is left as it is (a retried call changes nothing). With `expected` (If-Match) only that version.
 */
export async function setPageStatus(ctx: Ctx, id: number, status: 0 | 1, expected: number | null): Promise<Answer> {
  const { result, effects } = await ctx.changes.write(ctx.db, (tx, record) => {
    const before = pageById(tx, id)
    expectPageVersion(before, expected)
    if (before.status === status) return before
    const now = formatTime(ctx.clock())
    const after = updatePage(tx, before, {
      status,
      updatedAt: now,
      publishedAt: before.publishedAt ?? (status === PAGE_STATUS.published ? now : null),
    })
    record({ kind: 'page', before, after })
    return after
  })
  return { page: toPageRes(result, ctx.config.siteUrl), artifactsFailed: effects.artifactsFailed }
}

/** `POST pages/{id}/delete`: the page and its public files go; its slug is free again. */
export async function deletePage(ctx: Ctx, id: number, expected: number | null): Promise<Pick<ChangeEffects, 'artifactsFailed'>> {
  const { effects } = await ctx.changes.write(ctx.db, (tx, record) => {
    const before = pageById(tx, id)
    expectPageVersion(before, expected)
    tx.delete(pages).where(eq(pages.id, id)).run()
    record({ kind: 'page', before, after: null })
  })
  return { artifactsFailed: effects.artifactsFailed }
}
