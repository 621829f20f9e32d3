import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import type { MediaStore } from '../media/store.ts'
import { copyStoreMedia, localMedia } from './media-files.ts'
import { ImportFileError } from '../import/model.ts'
import { htmlToMarkdown } from '../site/markdown.ts'
import { folioPathOf, siteItems, type ExportPost, type ItemCounts } from './site-posts.ts'

/**
 * `export --format markdown`: a folder a Hugo (or, with the same files, Astro) user can build
 * from: `hugo.toml`, `content/posts/<slug>.md` (English) and `<slug>.zh.md` (Chinese, Hugo's
 * translation by file name), the standalone pages as `content/<slug>.md` (Hugo's top-level pages,
 * their navigation order as `weight`), YAML front matter, the body converted by the Markdown
 * twin's turndown, and the local media under `static/media/` with their URLs made site-relative.
 * Each post's and page's Folio URL is an `alias`, so the old address keeps working on the new site.
 */

const iso = (time: string | null) => (time ? `${time.replace(' ', 'T')}Z` : undefined)

function frontMatter(post: ExportPost, siteRelative: (url: string) => string): string {
  const fields: Record<string, unknown> = {
    title: post.title,
    date: iso(post.publishedAt ?? post.createdAt),
    lastmod: iso(post.updatedAt),
    draft: post.status !== 'published',
    slug: post.slug,
    summary: post.summary || undefined,
    description: post.seoDescription || post.summary || undefined,
    categories: post.category ? [post.category.name] : undefined,
    tags: post.tags.length ? post.tags.map((t) => t.name) : undefined,
    author: post.author?.name,
    cover: post.coverImage ? { image: siteRelative(post.coverImage), alt: post.coverAlt } : undefined,
    seoTitle: post.seoTitle || undefined,
    canonical: post.canonicalUrl || undefined,
    robots: post.robots || undefined,
    // The English slug names a translation pair in both files (Hugo's `translationKey`).
    translationKey: post.alternateSlug ? (post.language === 'en' ? post.slug : post.alternateSlug) : undefined,
    weight: post.menuOrder || undefined,
    aliases: [folioPathOf(post)],
  }
  const { stringify } = import.meta.require('yaml') as typeof import('yaml') // loaded by an export, not at every start
  return `---\n${stringify(fields, { lineWidth: 0 })}---\n`
}

/**
 * Writes the folder; refuses one that exists and is not empty. Returns the posts (and pages) and media files
 * written (with `MEDIA_STORE=s3`, read out of the bucket through `store`).
 */
export async function exportMarkdown(config: Config, db: Db, store: MediaStore, dir: string): Promise<ItemCounts & { media: number }> {
  if (existsSync(dir) && readdirSync(dir).length) throw new ImportFileError(dir, 'exists and is not empty: export into a new folder')
  mkdirSync(join(dir, 'content', 'posts'), { recursive: true })
  const mediaBase = config.mediaUrl.replace(/\/+$/, '') + '/'
  const siteRelative = (text: string) => text.replaceAll(mediaBase, '/media/')
  writeFileSync(
    join(dir, 'hugo.toml'),
    `baseURL = ${JSON.stringify(config.siteUrl + '/')}\ndefaultContentLanguage = "en"\n[languages.en]\nweight = 1\n[languages.zh]\nweight = 2\n# Bodies keep the HTML Markdown has no syntax for (embeds, figures).\n[markup.goldmark.renderer]\nunsafe = true\n`,
  )
  const count: ItemCounts = { post: 0, page: 0 }
  for (const post of siteItems(db.$client)) {
    const name = `${post.slug}${post.language === 'zh' ? '.zh' : ''}.md`
    writeFileSync(
      join(dir, 'content', ...(post.type === 'post' ? ['posts'] : []), name),
      frontMatter(post, siteRelative) + '\n' + siteRelative(htmlToMarkdown(post.contentHtml)) + '\n',
    )
    count[post.type]++
  }
  if (config.mediaStore === 's3') return { ...count, media: (await copyStoreMedia(db.$client, store, join(dir, 'static', 'media'))).length }
  const media = localMedia(config)
  for (const key of media.keys) {
    const target = join(dir, 'static', 'media', key)
    mkdirSync(dirname(target), { recursive: true })
    copyFileSync(join(media.root, key), target)
  }
  return { ...count, media: media.keys.length }
}
