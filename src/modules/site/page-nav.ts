import { and, asc, eq, ne } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { pages } from '../../db/schema/index.ts'
import type { Language } from '../../shared/language.ts'
import { PAGE_STATUS } from '../pages/terms.ts'
import { urlPathOf } from './targets.ts'

export interface NavLink {
  title: string
  href: string
}
/** The published pages a language's site links from its header and its footer, in the owner's order. */
export interface PageNav {
  header: NavLink[]
  footer: NavLink[]
}
export const NO_PAGE_NAV: PageNav = { header: [], footer: [] }

export function pageNavOf(db: Queryable, language: Language): PageNav {
  const rows = db
    .select({ title: pages.title, slug: pages.slug, navPlacement: pages.navPlacement })
    .from(pages)
    .where(and(eq(pages.status, PAGE_STATUS.published), eq(pages.language, language), ne(pages.navPlacement, 'none')))
    .orderBy(asc(pages.navOrder), asc(pages.id))
    .all()
  const links = (placement: 'header' | 'footer') =>
    rows
      .filter((r) => r.navPlacement === placement)
      .map((r) => ({ title: r.title, href: urlPathOf({ kind: 'page.standalone', language, slug: r.slug }) }))
  return { header: links('header'), footer: links('footer') }
}
