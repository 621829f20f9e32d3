import { and, asc, count, eq, ne, sql, type SQL } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { authors, posts } from '../../db/schema/index.ts'
import { invalidField, NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import { checkMedia, linkFault } from '../../shared/url-rule.ts'
import { discoverable } from '../posts/visibility.ts'
import { resolveSlug } from '../taxonomy/slugs.ts'
import type { AuthorReq, AuthorRes } from './model.ts'

export type AuthorRow = typeof authors.$inferSelect

export const toAuthorRes = (row: AuthorRow, postCount: number | null): AuthorRes => ({
  id: row.id,
  slug: row.slug,
  language: row.language,
  name: row.name,
  title: row.title,
  bio: row.bio,
  avatar: row.avatar,
  credentials: row.credentials,
  socialLinks: row.socialLinks,
  status: row.status,
  postCount,
})

const SOCIAL_LINKS_SHAPE = 'must be a JSON object of name to link, or an array of links or of {"label", "url"} objects'

/** The links of `socialLinks` (spec: "JSON string of public links"): `{"name": url}`, `[url]` or `[{"label", "url"}]`. */
function socialLinkUrls(parsed: unknown): unknown[] | null {
  if (Array.isArray(parsed))
    return parsed.map((item) =>
      item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as { url?: unknown }).url : item,
    )
  if (parsed !== null && typeof parsed === 'object') return Object.values(parsed)
  return null
}

/** Every link in `socialLinks` passes the shared link rule: an author page renders them as hrefs. */
function checkSocialLinks(value: string | null | undefined): void {
  if (!value?.trim()) return
  let urls: unknown[] | null
  try {
    urls = socialLinkUrls(JSON.parse(value))
  } catch {
    urls = null
  }
  if (!urls || urls.some((url) => typeof url !== 'string')) throw invalidField('socialLinks', SOCIAL_LINKS_SHAPE)
  for (const url of urls as string[]) {
    const fault = linkFault(url)
    if (fault) throw invalidField('socialLinks', `${JSON.stringify(url.slice(0, 100))}: ${fault}`)
  }
}

export async function saveAuthor(ctx: Ctx, req: AuthorReq): Promise<AuthorRes> {
  checkSocialLinks(req.socialLinks)
  await checkMedia('avatar', req.avatar, ctx.config, ctx.mediaExists)
  const { result } = await ctx.changes.write(ctx.db, (tx, record) => {
    const existing = req.id ? tx.select().from(authors).where(eq(authors.id, req.id)).get() : undefined
    if (req.id && !existing) throw new NotFound('author', req.id)
    // Slugs are unique per language: an author's en and zh profiles may share one.
    const taken = (slug: string) =>
      !!tx
        .select({ id: authors.id })
        .from(authors)
        .where(and(eq(authors.language, req.language), eq(authors.slug, slug), ne(authors.id, req.id ?? 0)))
        .get()
    const slug =
      req.slug?.trim() || !existing || existing.language !== req.language ? resolveSlug(req.slug, req.name, 'author', taken) : existing.slug
    const values = {
      slug,
      language: req.language,
      name: req.name.trim(),
      title: req.title ?? existing?.title ?? '',
      bio: req.bio ?? existing?.bio ?? '',
      avatar: req.avatar?.trim() ?? existing?.avatar ?? '',
      credentials: req.credentials ?? existing?.credentials ?? '',
      socialLinks: req.socialLinks ?? existing?.socialLinks ?? '',
      status: req.status ?? existing?.status ?? 1,
      sort: req.sort ?? existing?.sort ?? 0,
      updatedAt: formatTime(ctx.clock()),
    }
    const saved = existing
      ? tx.update(authors).set(values).where(eq(authors.id, existing.id)).returning().get()
      : tx
          .insert(authors)
          .values({ ...values, createdAt: values.updatedAt })
          .returning()
          .get()
    record({ kind: 'author', id: saved.id })
    return saved
  })
  return toAuthorRes(result, postCountOf(ctx.db, result.id))
}

const postCount = preparedOnce((db) =>
  db
    .select({ n: count() })
    .from(posts)
    .where(and(eq(posts.authorId, sql.placeholder('authorId')), discoverable))
    .prepare(),
)

/** How many discoverable posts an author has: every author list and author page shows it. */
export const postCountOf = (db: Queryable, authorId: number): number => postCount(db).get({ authorId })?.n ?? 0

const withPostCount = (db: Queryable) => (row: AuthorRow) => toAuthorRes(row, postCountOf(db, row.id))

/** Enabled authors, optionally of one language, in display order. */
export function listEnabledAuthors(db: Queryable, language?: 'en' | 'zh'): AuthorRes[] {
  const where = language ? and(eq(authors.status, 1), eq(authors.language, language)) : eq(authors.status, 1)
  return authorsInOrder(db, where).map(withPostCount(db))
}

const authorsInOrder = (db: Queryable, where?: SQL): AuthorRow[] =>
  db.select().from(authors).where(where).orderBy(asc(authors.sort), asc(authors.id)).all()

/** Every author, disabled ones too, in display order, with that order (`sort`): the console's list. */
export const listAllAuthors = (db: Queryable): (AuthorRes & { sort: number })[] =>
  authorsInOrder(db).map((row) => ({ ...withPostCount(db)(row), sort: row.sort }))

export function enabledAuthorBySlug(db: Queryable, slug: string, language: 'en' | 'zh'): AuthorRow {
  const row = db
    .select()
    .from(authors)
    .where(and(eq(authors.slug, slug), eq(authors.language, language), eq(authors.status, 1)))
    .get()
  if (!row) throw new NotFound('author', slug, 'slug')
  return row
}

export const authorDetail = (db: Queryable, slug: string, language: 'en' | 'zh'): AuthorRes =>
  withPostCount(db)(enabledAuthorBySlug(db, slug, language))
