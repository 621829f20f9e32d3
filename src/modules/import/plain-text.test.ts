import { describe, expect, test } from 'bun:test'
import { emptySeo, type ImportEntry } from './model.ts'
import { cleanEntry, withoutControls } from './plain-text.ts'

const dirty = 'A\u0001B\u0007C\u001fD\u007fE\tF\nG'

describe('imported plain text', () => {
  test('loses its ASCII control characters, keeps tab and line breaks (folded later)', () => {
    expect(withoutControls(dirty)).toBe('ABCDE\tF\nG')
    // Linear at the limits: a megabyte of controls, and of text with none.
    expect(withoutControls('\u0001'.repeat(1 << 20))).toBe('')
    expect(withoutControls('x'.repeat(1 << 20))).toHaveLength(1 << 20)
  })

  test('in every plain-text field of a post, its terms and comments', () => {
    const entry = cleanEntry({
      kind: 'post',
      value: {
        sourceId: '1',
        title: dirty,
        slug: 's\u0002',
        status: 'published',
        publishedAt: null,
        updatedAt: null,
        excerpt: dirty,
        cover: '',
        coverAlt: dirty,
        html: '<p>kept for the sanitizer</p>',
        categories: [{ sourceId: 'c', slug: 'c', name: dirty }],
        tags: [{ sourceId: 't', slug: 't', name: dirty }],
        author: null,
        seo: { ...emptySeo(), title: dirty, description: dirty, ogTitle: dirty, ogDescription: dirty },
        comments: [
          { sourceId: 'k', parent: null, authorName: dirty, authorEmail: 'a\u0003@b.c', content: dirty, status: 'approved', date: null },
        ],
        skippedComments: 0,
        oldPaths: [],
        notes: [],
      },
    } satisfies ImportEntry)
    expect(JSON.stringify(entry)).not.toMatch(/\\u00(0[0-8bcef]|1[0-9a-f]|7f)/i)
    expect(entry.kind === 'post' && entry.value.title).toBe('ABCDE\tF\nG')
    const author = cleanEntry({ kind: 'author', value: { sourceId: 'a', slug: 'a', name: dirty, bio: dirty, avatar: '', oldPaths: [] } })
    expect(author.kind === 'author' && [author.value.name, author.value.bio]).toEqual(['ABCDE\tF\nG', 'ABCDE\tF\nG'])
  })
})
