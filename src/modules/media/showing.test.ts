import { describe, expect, test } from 'bun:test'
import { migrateDatabase, openDatabase } from '../../db/client.ts'
import { authors, categories, pages, posts, settings } from '../../db/schema/index.ts'
import { changesShowing } from './showing.ts'

/** What re-renders when an upload's variants land (showing.ts): everything published that names its key, nothing else. */
describe('changesShowing', () => {
  test('published posts (cover, ogImage, body) and pages, avatars and the icon; drafts, deleted posts and other images not', () => {
    const db = openDatabase(':memory:')
    migrateDatabase(db)
    const key = '2026/11/0123456789abcdef0123456789abcdef.jpg'
    const url = `https://blog.example.org/media/${key}`
    const other = 'https://blog.example.org/media/2026/11/ffffffffffffffffffffffffffffffff.jpg'
    const [category] = db.insert(categories).values({ slug: 'notes', nameEn: 'Notes' }).returning().all()
    const post = (slug: string, fields: Record<string, unknown>) => ({
      language: 'en' as const,
      slug,
      title: slug,
      summary: '',
      contentHtml: '<p>Text</p>',
      categoryId: category!.id,
      status: 1,
      ...fields,
    })
    db.insert(posts)
      .values([
        post('cover', { coverImage: url }),
        post('og', { ogImage: url }),
        post('body', { contentHtml: `<figure><img src="${url}" alt="x"></figure>` }),
        post('draft', { coverImage: url, status: 0 }),
        post('deleted', { coverImage: url, deletedAt: '2026-11-01 00:00:00' }),
        post('elsewhere', { coverImage: other }),
      ])
      .run()
    db.insert(pages)
      .values([
        { language: 'en', slug: 'about', title: 'About', contentHtml: `<img src="${url}" alt="x">`, status: 1 },
        { language: 'en', slug: 'draft', title: 'Draft', contentHtml: `<img src="${url}" alt="x">`, status: 0 },
      ])
      .run()
    const [author] = db.insert(authors).values({ slug: 'jane', language: 'en', name: 'Jane', avatar: url }).returning().all()
    db.insert(authors).values({ slug: 'li', language: 'zh', name: 'Li', avatar: other }).run()

    const seen = (changes: ReturnType<typeof changesShowing>) =>
      changes.map((c) =>
        c.kind === 'post'
          ? `post ${c.after.slug}`
          : c.kind === 'page'
            ? `page ${c.after?.slug}`
            : c.kind === 'author'
              ? `author ${c.id}`
              : c.kind,
      )
    expect(db.transaction((tx) => seen(changesShowing(tx, key)))).toEqual([
      'post cover',
      'post og',
      'post body',
      'page about',
      `author ${author!.id}`,
    ])

    // The publication's icon is in every header: the settings change re-renders every page.
    db.insert(settings).values({ key: 'publication.iconUrl', value: url }).run()
    expect(db.transaction((tx) => seen(changesShowing(tx, key))).at(-1)).toBe('settings')
    // A post change carries the post as it is, before and after alike: nothing in it is new.
    const first = db.transaction((tx) => changesShowing(tx, key))[0]!
    expect(first.kind === 'post' && first.before === first.after && first.event === null).toBe(true)
  })
})
