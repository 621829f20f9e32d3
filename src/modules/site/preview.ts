import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { PREVIEW_PAGE_PATH, readPreview } from '../posts/preview.ts'
import { renderPostPage } from './render.tsx'
import { PAGE_HEADERS } from './serve.ts'

/**
 * `GET /preview/{token}`: the post a preview token names, as stored now (draft or not), shown as
 * the site's post page (docs/agents.md, "Previews"). Rendered on request from the same verb as the
 * JSON preview, marked noindex, never stored by any cache and never written as an artifact (no
 * target maps here, so Caddy proxies it). A refused token answers the envelope's 400.
 */
export const previewPageRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'site.preview', prefix: PREVIEW_PAGE_PATH }).get(
    '/:token',
    ({ params }) => {
      const post = readPreview(ctx, params.token)
      const source = {
        db: ctx.db,
        siteUrl: ctx.config.siteUrl,
        sitemapShardSize: ctx.config.sitemapShardSize,
        mediaUrl: ctx.config.mediaUrl,
      }
      const html = renderPostPage(source, { post, partner: null, noindex: true })
      return new Response(html, {
        headers: {
          ...PAGE_HEADERS,
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'x-robots-tag': 'noindex',
          'referrer-policy': 'no-referrer',
        },
      })
    },
    { params: t.Object({ token: t.String({ maxLength: 200 }) }) },
  )
