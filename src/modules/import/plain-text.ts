import type { ImportEntry, ImportSeo } from './model.ts'

/** ASCII control characters but tab, line feed and carriage return (whitespace the writers fold), and DEL. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]+/g

/** A plain-text field of a hostile file without its control characters (one linear pass). */
export const withoutControls = (text: string): string => text.replace(CONTROL, '')

const seoOf = (seo: ImportSeo): ImportSeo => ({
  ...seo,
  title: withoutControls(seo.title),
  description: withoutControls(seo.description),
  ogTitle: withoutControls(seo.ogTitle),
  ogDescription: withoutControls(seo.ogDescription),
})

/**
 * An entry of any source with the control characters taken out of every plain-text field
 * (titles, names, slugs, excerpts, alt texts, SEO texts, bios, comments), so none is stored,
 * rendered or exported. Body HTML is left to the sanitizer.
 */
export function cleanEntry(entry: ImportEntry): ImportEntry {
  switch (entry.kind) {
    case 'site':
      return entry
    case 'category': {
      const { value } = entry
      const name = withoutControls(value.name)
      return {
        kind: 'category',
        value: { ...value, name, slug: withoutControls(value.slug), description: withoutControls(value.description) },
      }
    }
    case 'tag':
      return { kind: 'tag', value: { ...entry.value, name: withoutControls(entry.value.name), slug: withoutControls(entry.value.slug) } }
    case 'author': {
      const { value } = entry
      return {
        kind: 'author',
        value: { ...value, name: withoutControls(value.name), slug: withoutControls(value.slug), bio: withoutControls(value.bio) },
      }
    }
    case 'page': {
      const { value } = entry
      return {
        kind: 'page',
        value: { ...value, title: withoutControls(value.title), slug: withoutControls(value.slug), seo: seoOf(value.seo) },
      }
    }
    case 'post': {
      const { value } = entry
      const term = <T extends { name: string; slug: string }>(t: T): T => ({
        ...t,
        name: withoutControls(t.name),
        slug: withoutControls(t.slug),
      })
      return {
        kind: 'post',
        value: {
          ...value,
          title: withoutControls(value.title),
          slug: withoutControls(value.slug),
          excerpt: withoutControls(value.excerpt),
          coverAlt: withoutControls(value.coverAlt),
          seo: seoOf(value.seo),
          categories: value.categories.map(term),
          tags: value.tags.map(term),
          comments: value.comments.map((c) => ({
            ...c,
            authorName: withoutControls(c.authorName),
            authorEmail: withoutControls(c.authorEmail),
            content: withoutControls(c.content),
          })),
        },
      }
    }
  }
}
