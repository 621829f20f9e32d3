import { t } from 'elysia'
import { inArray } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { settings } from '../../db/schema/index.ts'
import { LIMITS, optText } from '../../http/schema.ts'
import { invalidField } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'

/** `BlogPublicationSettingsRes` (spec §2.11): the only settings ever served publicly. */
export const PublicationSettings = t.Object({ iconUrl: t.String(), iconAlt: t.String() }, { $id: 'BlogPublicationSettingsRes' })
export type PublicationSettings = typeof PublicationSettings.static

export const PublicationSettingsReq = t.Object({ iconUrl: optText(LIMITS.url), iconAlt: optText(LIMITS.shortText) })
export type PublicationSettingsReq = typeof PublicationSettingsReq.static

const KEYS = { iconUrl: 'publication.iconUrl', iconAlt: 'publication.iconAlt' } as const

export function publicationSettings(db: Queryable): PublicationSettings {
  const rows = db
    .select()
    .from(settings)
    .where(inArray(settings.key, Object.values(KEYS)))
    .all()
  const value = (key: string) => rows.find((r) => r.key === key)?.value ?? ''
  return { iconUrl: value(KEYS.iconUrl), iconAlt: value(KEYS.iconAlt) }
}

/** Sets the fields that were sent; an absent field keeps its value. */
export async function savePublicationSettings(ctx: Ctx, req: PublicationSettingsReq): Promise<PublicationSettings> {
  const iconUrl = req.iconUrl?.trim()
  if (iconUrl && !/^(https?:)?\/\//i.test(iconUrl) && !iconUrl.startsWith('/'))
    throw invalidField('iconUrl', 'expected an http(s) URL or a site path')
  await ctx.changes.write(ctx.db, (tx, record) => {
    const updatedAt = formatTime(ctx.clock())
    for (const [field, key] of Object.entries(KEYS) as [keyof PublicationSettings, string][]) {
      const value = field === 'iconUrl' ? iconUrl : req[field]?.trim()
      if (value === undefined) continue
      tx.insert(settings).values({ key, value, updatedAt }).onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } }).run()
    }
    record({ kind: 'settings' })
  })
  return publicationSettings(ctx.db)
}
