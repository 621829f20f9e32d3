import { t } from 'elysia'
import { invalidField } from '../shared/errors.ts'

/** The `If-Match` header of a conditional post write, as the routes declare it (and the OpenAPI document states it). */
export const IfMatchHeaders = t.Object({
  'if-match': t.Optional(
    t.String({ pattern: '^\\s*(W/)?"?[1-9][0-9]{0,15}"?\\s*$', description: 'the post version this write is based on, e.g. "7"' }),
  ),
})

/**
 * The post version a write expects (docs/agents.md, "Versions"): `If-Match: "7"` (the quotes of
 * an entity tag are optional, so are `W/`), else the body's `version`; null when neither is sent.
 * Both sent and different is a 400, since one of them is a mistake.
 */
export function expectedVersion(headers: Headers, bodyVersion?: number | null): number | null {
  const header = headers.get('if-match')
  if (header === null) return bodyVersion ?? null
  const match = /^\s*(?:W\/)?"?([1-9][0-9]{0,15})"?\s*$/.exec(header)
  if (!match) throw invalidField('If-Match', 'expected a post version such as "7"')
  const version = Number(match[1])
  if (bodyVersion != null && bodyVersion !== version) throw invalidField('version', `disagrees with If-Match (${version})`)
  return version
}
