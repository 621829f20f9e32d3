import { Elysia } from 'elysia'
import type { Ctx } from '../../context.ts'
import { auth } from '../../http/auth.ts'
import { publicationSettings, PublicationSettingsReq, savePublicationSettings } from './settings.ts'

export const settingsRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'settings' })
    .use(auth)
    .get('/api/v1/blog/publication-settings', () => publicationSettings(ctx.db))
    .post('/api/admin/blog/publication-settings/save', ({ body }) => savePublicationSettings(ctx, body), {
      body: PublicationSettingsReq,
      scope: 'blog:admin',
    })
