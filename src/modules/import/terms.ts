import { and, eq } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { authors, categories, tags } from '../../db/schema/index.ts'
import type { Language } from '../../shared/language.ts'
import { slugOf } from '../../shared/slug.ts'
import { formatTime } from '../../shared/time.ts'
import { digestOf, knownItem, rememberItem, type ItemKind } from './ids.ts'
import type { ImportAuthor, ImportCategory, ImportTag, TermRef } from './model.ts'
import type { Counts } from './report.ts'

/** A source slug as Folio spells slugs: WordPress percent-encodes non-ASCII ones (`%e4%b8%ad`). */
export function cleanSlug(slug: string, fallback: string): string {
  let decoded = slug
  try {
    decoded = decodeURIComponent(slug)
  } catch {
    // A stray % is kept as text and dropped by slugOf.
  }
  return slugOf(decoded) || slugOf(fallback) || ''
}

type Table = typeof categories | typeof tags | typeof authors

/**
 * The categories, tags and authors of one import, by source id: each is found (an earlier run,
 * or a Folio row of the same slug, which is adopted), updated when the source changed it, or
 * created. Ids are cached for the run; a source has few terms next to its posts.
 */
export class Terms {
  private readonly ids = new Map<string, number>()
  private readonly parents = new Map<string, string | null>()

  constructor(
    private readonly source: string,
    /** Tags and authors are kept in this language (`all` tags when the import is `auto`). */
    private readonly language: Language | 'auto',
    private readonly counts: Record<'categories' | 'tags' | 'authors', Counts>,
  ) {}

  /** How deep a category sits in the source's hierarchy (0 at the top): the deepest names a post best. */
  depth(sourceId: string): number {
    let depth = 0
    const seen = new Set<string>()
    for (let at = this.parents.get(sourceId); at && !seen.has(at); at = this.parents.get(at)) {
      seen.add(at)
      depth++
    }
    return depth
  }

  category(db: Queryable, c: ImportCategory | TermRef): number {
    if ('parent' in c) this.parents.set(c.sourceId, c.parent)
    const name = c.name.trim() || c.slug
    const values = {
      slug: cleanSlug(c.slug, name) || 'category',
      nameEn: name,
      nameZh: this.language === 'zh' ? name : '',
      ...('description' in c ? { descriptionEn: c.description } : {}),
    }
    return this.upsert(db, 'category', categories, c.sourceId, values, 'parent' in c, this.counts.categories, () =>
      db.select({ id: categories.id }).from(categories).where(eq(categories.slug, values.slug)).get(),
    )
  }

  tag(db: Queryable, t: ImportTag | TermRef): number {
    const name = t.name.trim() || t.slug
    const language = this.language === 'auto' ? 'all' : this.language
    const values = {
      slug: cleanSlug(t.slug, name) || 'tag',
      nameEn: language === 'zh' ? '' : name,
      nameZh: language === 'en' ? '' : name,
      language,
    } as const
    return this.upsert(db, 'tag', tags, t.sourceId, values, 'oldPaths' in t, this.counts.tags, () =>
      db.select({ id: tags.id }).from(tags).where(eq(tags.slug, values.slug)).get(),
    )
  }

  author(db: Queryable, a: ImportAuthor): number {
    const language = this.language === 'auto' ? 'en' : this.language
    const values = { slug: cleanSlug(a.slug, a.name) || 'author', language, name: a.name.trim() || a.slug, bio: a.bio, avatar: a.avatar }
    return this.upsert(db, 'author', authors, a.sourceId, values, true, this.counts.authors, () =>
      db
        .select({ id: authors.id })
        .from(authors)
        .where(and(eq(authors.language, language), eq(authors.slug, values.slug)))
        .get(),
    )
  }

  /** Whether this run already holds the id of a term: naming it then reads and writes nothing. */
  cached(kind: 'category' | 'tag' | 'author', sourceId: string): boolean {
    return this.ids.has(`${kind}:${sourceId}`)
  }

  /** The id of a term a post names by source id, when the file declared it or an earlier run stored it. */
  known(db: Queryable, kind: 'category' | 'tag' | 'author', sourceId: string): number | undefined {
    const key = `${kind}:${sourceId}`
    const id = this.ids.get(key) ?? knownItem(db, this.source, kind, sourceId)?.targetId
    if (id !== undefined) this.ids.set(key, id)
    return id
  }

  /**
   * `declared`: the file's own record of the term (written when it changed); a post's ref only
   * creates a term the file never declared, and never overwrites one.
   */
  private upsert(
    db: Queryable,
    kind: ItemKind,
    table: Table,
    sourceId: string,
    values: Record<string, unknown>,
    declared: boolean,
    counts: Counts,
    bySlug: () => { id: number } | undefined,
  ): number {
    const key = `${kind}:${sourceId}`
    const cached = this.ids.get(key)
    if (cached !== undefined && !declared) return cached
    const digest = digestOf(values)
    const known = knownItem(db, this.source, kind, sourceId)
    const now = formatTime(new Date())
    let id: number
    if (known && (known.digest === digest || !declared)) {
      counts.unchanged++
      id = known.targetId
    } else if (known) {
      db.update(table)
        .set({ ...values, updatedAt: now } as never)
        .where(eq(table.id, known.targetId))
        .run()
      counts.updated++
      id = known.targetId
    } else {
      const adopted = bySlug()
      if (adopted) counts.unchanged++
      else counts.created++
      id =
        adopted?.id ??
        (
          db
            .insert(table)
            .values({ ...values, createdAt: now, updatedAt: now } as never)
            .returning({ id: table.id })
            .get() as { id: number }
        ).id
    }
    if (!known || known.digest !== digest) rememberItem(db, this.source, kind, sourceId, id, declared ? digest : (known?.digest ?? ''))
    this.ids.set(key, id)
    return id
  }
}
