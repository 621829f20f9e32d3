import { firstFreeSlug, SLUG_SHAPE, slugOf } from '../../shared/slug.ts'
import { DomainError, invalidField } from '../../shared/errors.ts'

export class DuplicateSlug extends DomainError {
  constructor(slug: string, field = 'slug') {
    super('DUPLICATE_SLUG', 400, `The slug "${slug}" is already used.`, { errors: [{ field, message: `"${slug}" is already used` }] })
  }
}

/**
 * The slug a category, tag or author is saved under: a requested slug must already be in the
 * public shape and free (else a 400 naming `slug`); a blank one is generated from `name` and
 * made unique with -2, -3…; `fallback` covers names with no letters or digits at all.
 */
export function resolveSlug(
  requested: string | null | undefined,
  name: string,
  fallback: string,
  taken: (slug: string) => boolean,
): string {
  const wanted = requested?.trim().toLowerCase()
  if (wanted) {
    if (!SLUG_SHAPE.test(wanted) || wanted.length > 75)
      throw invalidField('slug', 'use lower-case ASCII words joined by hyphens, at most 75 characters')
    if (taken(wanted)) throw new DuplicateSlug(wanted)
    return wanted
  }
  const base = slugOf(name) || fallback
  return firstFreeSlug(base.length >= 2 ? base : fallback, taken)
}
