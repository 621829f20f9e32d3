import { t } from 'elysia'
import { inArray } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { settings } from '../../db/schema/index.ts'
import { LIMITS, optText } from '../../http/schema.ts'
import { formatTime } from '../../shared/time.ts'
import { checkMedia } from '../../shared/url-rule.ts'

/**
 * `BlogPublicationSettingsRes` (spec §2.11) plus the public site's display fields (name,
 * description and language labels per language): the only settings ever served publicly.
 */
export const PublicationSettings = t.Object(
  {
    iconUrl: t.String(),
    iconAlt: t.String(),
    nameEn: t.String(),
    nameZh: t.String(),
    descriptionEn: t.String(),
    descriptionZh: t.String(),
    labelEn: t.String(),
    labelZh: t.String(),
  },
  { $id: 'BlogPublicationSettingsRes' },
)
export type PublicationSettings = typeof PublicationSettings.static

export const PublicationSettingsReq = t.Object({
  iconUrl: optText(LIMITS.url),
  iconAlt: optText(LIMITS.shortText),
  nameEn: optText(LIMITS.name),
  nameZh: optText(LIMITS.name),
  descriptionEn: optText(LIMITS.text),
  descriptionZh: optText(LIMITS.text),
  labelEn: optText(LIMITS.name),
  labelZh: optText(LIMITS.name),
})
export type PublicationSettingsReq = typeof PublicationSettingsReq.static

const KEYS: Record<keyof PublicationSettings, string> = {
  iconUrl: 'publication.iconUrl',
  iconAlt: 'publication.iconAlt',
  nameEn: 'publication.nameEn',
  nameZh: 'publication.nameZh',
  descriptionEn: 'publication.descriptionEn',
  descriptionZh: 'publication.descriptionZh',
  labelEn: 'publication.labelEn',
  labelZh: 'publication.labelZh',
}

export function publicationSettings(db: Queryable): PublicationSettings {
  const rows = db
    .select()
    .from(settings)
    .where(inArray(settings.key, Object.values(KEYS)))
    .all()
  const value = (field: keyof PublicationSettings) => rows.find((r) => r.key === KEYS[field])?.value ?? ''
  return Object.fromEntries(
    Object.keys(KEYS).map((field) => [field, value(field as keyof PublicationSettings)]),
  ) as unknown as PublicationSettings
}

/** Sets the fields that were sent; an absent field keeps its value. */
export async function savePublicationSettings(ctx: Ctx, req: PublicationSettingsReq): Promise<PublicationSettings> {
  const iconUrl = req.iconUrl?.trim()
  await checkMedia('iconUrl', iconUrl, ctx.config, ctx.mediaExists)
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
