import { idsByProductId, importCatalogue } from '../resources/catalogue.ts'
import { publishablePost, publishableZhPost, publishNewPost } from '../support/fixtures.ts'
import { startStack, type Stack } from '../publishing/stack.ts'
import { freePort } from '../support/caddy.ts'
import { png } from '../media/fixtures.ts'
import sharp from 'sharp'
import { E0, Z0 } from '../../src/modules/seo/worked-examples.ts'

/**
 * A small bilingual site for the site tests: publication settings, a category, a tag, an
 * English and a Chinese author, a translated pair of posts (cover, FAQ, product card), a
 * second English post, and the resource catalogue.
 */
export interface SiteWorld extends Stack {
  admin: string
  en: any
  zh: any
  second: any
  tag: { id: number; slug: string }
  category: { slug: string }
  author: { slug: string }
  productIds: Record<string, number>
}

/**
 * The site is served by Caddy at SITE_URL, so every absolute link in a page can be followed.
 * `coverBytes`: the bytes of the posts' cover (a 1 px PNG unless given; the Lighthouse bench gives a photo).
 */
export async function startSiteWorld(env: Record<string, string> = {}, coverBytes?: Uint8Array<ArrayBuffer>): Promise<SiteWorld> {
  const port = await freePort()
  const siteUrl = `http://127.0.0.1:${port}`
  const stack = await startStack({ SITE_URL: siteUrl, MEDIA_URL: `${siteUrl}/media`, ...env }, port)
  if (stack.caddy.url !== siteUrl) {
    await stack.dispose()
    throw new Error(`caddy could not take port ${port}`)
  }
  try {
    const { folio, token } = stack
    const upload = async (bytes: Uint8Array<ArrayBuffer>, name: string) => {
      const body = new FormData()
      body.append('file', new File([bytes], name, { type: 'image/png' }))
      const answer = await folio.call('POST', '/api/v1/blog/media/upload', { token, body })
      if (answer.body?.code !== '0000') throw new Error(`upload failed: ${answer.text}`)
      return answer.body.data as string
    }
    const coverImage = await upload(coverBytes ?? png([40, 90, 160]), 'cover.png')
    // An icon as a publication would upload one: big enough for the header's 32 px on a 2x phone.
    const iconUrl = await upload(
      new Uint8Array(
        await sharp({ create: { width: 96, height: 96, channels: 3, background: '#c87828' } })
          .png()
          .toBuffer(),
      ),
      'icon.png',
    )
    const admin = await folio.token('blog:admin')
    await folio.call('POST', '/api/admin/blog/publication-settings/save', {
      token: admin,
      body: {
        nameEn: 'Field Notes',
        nameZh: '田野笔记',
        descriptionEn: 'Notes on building fast, readable websites.',
        descriptionZh: '关于构建快速、易读网站的笔记。',
        iconUrl,
        iconAlt: 'Field Notes logo',
      },
    })
    await importCatalogue(folio)
    const productIds = await idsByProductId(folio, token)
    const tag = (
      await folio.call('POST', '/api/v1/blog/tags/save', { token, body: { nameEn: 'Static sites', nameZh: '静态网站', language: 'all' } })
    ).body.data
    const zhAuthor = (
      await folio.call('POST', '/api/v1/blog/authors/save', { token, body: { name: '李明', language: 'zh', bio: '前端工程师。' } })
    ).body.data
    await folio.call('POST', '/api/v1/blog/authors/save', {
      token,
      body: { id: stack.authorId, name: 'Jane Doe', language: 'en', title: 'Editor', bio: 'Jane writes about the web.' },
    })
    // The catalogue examples' bodies show images from images.example.org; the site shows our own uploads.
    const own = (html: string) => html.replace(/https:\/\/images\.example\.org\/[\w.-]+/g, coverImage)
    const cover = { coverImage, coverAlt: 'Three generator logos on a desk', relatedProductIds: String(productIds['H-100']) }
    // The Chinese draft first, so the English post's alternateSlug names an existing post.
    const zhBody = publishableZhPost(stack.categoryId, zhAuthor.id, {
      contentHtml: own(Z0.contentHtml),
      slug: 'xuanze-shengchengqi',
      alternateSlug: 'choose-a-generator',
      tagIds: [tag.id],
      ...cover,
      coverAlt: '桌上的三个生成器标志',
    })
    const zhDraft = await folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...zhBody, status: 0 } })
    const en = await publishNewPost(
      folio,
      token,
      publishablePost(stack.categoryId, stack.authorId, {
        contentHtml: own(E0.contentHtml),
        slug: 'choose-a-generator',
        alternateSlug: 'xuanze-shengchengqi',
        tagIds: [tag.id],
        ...cover,
      }),
    )
    const zhPublished = await folio.call('POST', `/api/v1/blog/posts/${zhDraft.body.data.id}/publish`, { token })
    if (zhPublished.body?.code !== '0000') throw new Error(`publish failed: ${zhPublished.text}`)
    const zh = zhPublished.body.data
    const second = await publishNewPost(
      folio,
      token,
      publishablePost(stack.categoryId, stack.authorId, { contentHtml: own(E0.contentHtml), coverImage, slug: 'second-post' }),
    )
    const category = (await folio.call('GET', `/api/v1/blog/categories`)).body.data.find((c: any) => c.id === stack.categoryId)
    const authors = (await folio.call('GET', '/api/v1/blog/authors?language=en')).body.data
    return { ...stack, admin, en, zh, second, tag, category, author: authors.find((a: any) => a.id === stack.authorId), productIds }
  } catch (error) {
    await stack.dispose()
    throw error
  }
}
