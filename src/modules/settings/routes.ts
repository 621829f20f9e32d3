import { Elysia } from 'elysia'
import type { Ctx } from '../../context.ts'
import { auth } from '../../http/auth.ts'
import { contract } from '../../http/contract.ts'
import { publicationSettings, PublicationSettings, PublicationSettingsReq, savePublicationSettings } from './settings.ts'

export const settingsRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'settings' })
    .use(auth)
    .get('/api/v1/blog/publication-settings', () => publicationSettings(ctx.db), {
      ...contract({
        operationId: 'getPublicationSettings',
        summary: 'Public publication settings',
        tag: 'public',
        data: PublicationSettings,
      }),
    })
    .post('/api/admin/blog/publication-settings/save', ({ body }) => savePublicationSettings(ctx, body), {
      body: PublicationSettingsReq,
      scope: 'blog:admin',
    })
