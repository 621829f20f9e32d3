import type { Ctx } from '../../context.ts'
import { invalidField } from '../../shared/errors.ts'
import type { SeoCheckResult, SeoInput } from '../seo/types.ts'
import type { SeoCheckReq } from './model.ts'
import { livePost } from './repo.ts'
import { runCheck, seoInputOf } from './seo.ts'

/** Body fields that were sent win; the rest come from the stored post (seo-rules.md §1). */
function layOver(stored: SeoInput | null, body: Omit<SeoCheckReq, 'contentMarkdown'>): SeoInput {
  const sent = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined))
  return { ...(stored ?? {}), ...sent, id: body.id ?? null } as SeoInput
}

/**
 * `POST posts/check`: the SEO/AEO report for a draft, never saved. The body is judged as it
 * would be stored (Markdown converted, sanitized), so the check and the publish gate agree.
 */
export async function checkDraft(ctx: Ctx, body: SeoCheckReq): Promise<SeoCheckResult> {
  const { contentMarkdown: _markdown, ...fields } = body
  const contentHtml = await ctx.seo.run('checkedBody', body)
  const stored = body.id ? seoInputOf(livePost(ctx.db, body.id)) : null
  return runCheck(ctx, layOver(stored, { ...fields, contentHtml }))
}

const REQUIRED = ['language', 'title', 'categoryId'] as const

/**
 * MCP `check_post` (docs/agents.md): with `id`, the stored post with the fields sent laid over
 * it, its stored body when none is sent; without `id`, the HTTP check's required fields apply.
 */
export function checkPostFields(ctx: Ctx, body: Partial<SeoCheckReq>): Promise<SeoCheckResult> {
  const sentBody = body.contentHtml !== undefined || body.contentMarkdown !== undefined
  if (body.id) {
    const stored = livePost(ctx.db, body.id)
    return checkDraft(ctx, { ...body, ...(sentBody ? {} : { contentHtml: stored.contentHtml }) } as SeoCheckReq)
  }
  const missing = REQUIRED.find((field) => body[field] === undefined || body[field] === null)
  if (missing) throw invalidField(missing, `${missing} is required without an id`)
  return checkDraft(ctx, body as SeoCheckReq)
}
