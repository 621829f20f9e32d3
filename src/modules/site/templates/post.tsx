import { nameIn, type Language } from '../../../shared/language.ts'
import type { AuthorRes } from '../../authors/model.ts'
import { ENGAGEMENT_LIMITS } from '../../engagement/terms.ts'
import type { PostRes } from '../../posts/model.ts'
import { authorUrl, completeFaq, postCrumbs, type Head } from '../head.ts'
import type { PostExtras } from '../neighbours.ts'
import { CommentList } from './comments.tsx'
import { readingBody } from '../reading.ts'
import type { ImageLookup } from '../../media/responsive.ts'
import { Picture, SIZES } from './picture.tsx'
import { PostNav } from './post-nav.tsx'
import type { Publication } from '../snapshot.ts'
import { urlPathOf } from '../targets.ts'
import { Layout, type Chrome } from './layout.tsx'
import { Toc } from './toc.tsx'
import { readableDate, WORDS } from './words.ts'

/** Minutes to read: 230 words a minute for Latin text, 400 characters for Chinese. */
export function readingMinutes(text: string, language: Language): number {
  const units = language === 'zh' ? text.replace(/\s/g, '').length / 400 : text.split(/\s+/).filter(Boolean).length / 230
  return Math.max(1, Math.round(units))
}

export function Crumbs({ items, label }: { items: { name: string; url: string }[]; label: string }) {
  return (
    <nav class="crumbs" aria-label={label}>
      <ol>
        {items.map((item, i) => (
          <li>
            {i === items.length - 1 ? <span aria-current="page">{item.name}</span> : <a href={new URL(item.url).pathname}>{item.name}</a>}
          </li>
        ))}
      </ol>
    </nav>
  )
}

export function AuthorBox({
  author,
  pub,
  heading,
  images,
}: {
  author: AuthorRes
  pub: Publication
  heading: string
  images?: ImageLookup
}) {
  return (
    <aside class="author-box" aria-label={heading}>
      {author.avatar ? (
        <Picture src={author.avatar} alt={author.name} images={images} sizes={SIZES.avatar} width={64} height={64} fixed loading="lazy" />
      ) : null}
      <div>
        <h2>
          <a href={new URL(authorUrl(pub.siteUrl, author)).pathname}>{author.name}</a>
        </h2>
        {author.title ? <p>{author.title}</p> : null}
        {author.credentials ? <p>{author.credentials}</p> : null}
        {author.bio ? <p>{author.bio}</p> : null}
      </div>
    </aside>
  )
}

export function PostPageView({
  head,
  chrome,
  post,
  pub,
  extras,
}: {
  head: Head
  chrome: Chrome
  post: PostRes
  pub: Publication
  extras: PostExtras
}) {
  const language = post.language as Language
  const w = WORDS[language]
  const faq = completeFaq(post)
  const author = post.authorProfile
  const tagName = (t: PostRes['tags'][number]) => nameIn(language, t) || t.slug
  const words = JSON.stringify({ thanks: w.thanks, received: w.received })
  // A card the body already shows (the README walkthrough inserts one) is not shown twice.
  const products = post.relatedProducts.filter((p) => !post.contentHtml.includes(`href="${p.links[language]}"`))
  return (
    <Layout head={head} chrome={chrome}>
      <article class="article" lang={language === 'zh' ? 'zh-CN' : 'en'}>
        <Crumbs items={postCrumbs(pub, post)} label={w.breadcrumb} />
        <header>
          <h1>{post.title}</h1>
          {post.summary ? <p class="lede">{post.summary}</p> : null}
          <p class="meta">
            {author ? (
              <span>
                {w.by} <a href={new URL(authorUrl(pub.siteUrl, author)).pathname}>{author.name}</a>
              </span>
            ) : post.author ? (
              <span>
                {w.by} {post.author}
              </span>
            ) : null}
            {post.publishedAt ? (
              <span>
                {w.published} <time dateTime={post.publishedAt.replace(' ', 'T') + 'Z'}>{readableDate(post.publishedAt, language)}</time>
              </span>
            ) : null}
            {post.reviewedAt ? (
              <span>
                {w.reviewed} <time dateTime={post.reviewedAt.replace(' ', 'T') + 'Z'}>{readableDate(post.reviewedAt, language)}</time>
              </span>
            ) : null}
            <span>{w.readingTime(readingMinutes(post.contentText, language))}</span>
          </p>
        </header>
        {post.coverImage ? (
          <figure class="cover">
            {/* The LCP image: fetched first; its box is 16:9 whatever the file (theme.css), so the size is known. */}
            <Picture
              src={post.coverImage}
              alt={post.coverAlt}
              images={chrome.images}
              sizes={SIZES.column}
              width={1600}
              height={900}
              fetchpriority="high"
            />
          </figure>
        ) : null}
        {post.answerSummary ? (
          <section class="answer" aria-labelledby="answer-heading">
            <h2 id="answer-heading">{w.answer}</h2>
            <p>{post.answerSummary}</p>
          </section>
        ) : null}
        {post.keyTakeaways.length ? (
          <section class="takeaways" aria-labelledby="takeaways-heading">
            <h2 id="takeaways-heading">{w.takeaways}</h2>
            <ul>
              {post.keyTakeaways.map((k) => (
                <li>{k}</li>
              ))}
            </ul>
          </section>
        ) : null}
        {post.toc.length ? <Toc items={post.toc} heading={w.toc} /> : null}
        <div class="content" dangerouslySetInnerHTML={{ __html: readingBody(post.contentHtml, language, chrome.images) }} />
        {faq.length ? (
          <section class="faq" aria-labelledby="faq-heading">
            <h2 id="faq-heading">{w.faq}</h2>
            {faq.map((f) => (
              <details open>
                <summary>{f.question}</summary>
                <p>{f.answer}</p>
              </details>
            ))}
          </section>
        ) : null}
        {products.length ? (
          <section aria-labelledby="products-heading">
            <h2 id="products-heading">{w.products}</h2>
            {products.map((p) => (
              <div dangerouslySetInnerHTML={{ __html: p.cardHtml[language] }} />
            ))}
          </section>
        ) : null}
        {post.tags.length ? (
          <ul class="tags" aria-label={w.tags}>
            {post.tags.map((t) => (
              <li>
                <a href={urlPathOf({ kind: 'page.list', language, scope: { kind: 'tag', slug: t.slug }, page: 1 })}>{tagName(t)}</a>
              </li>
            ))}
          </ul>
        ) : null}
        {author ? <AuthorBox author={author} pub={pub} heading={w.about} images={chrome.images} /> : null}
        <section class="engage" data-engage data-post-id={String(post.id)} data-words={words} aria-label={`${w.claps}, ${w.comments}`}>
          <p>
            <span data-claps>{post.clapCount}</span> {w.claps} · <span data-comments>{post.commentCount}</span> {w.comments}
          </p>
          <p hidden data-needs-script>
            <button type="button" data-clap>
              {w.clap}
            </button>
          </p>
          <CommentList comments={extras.comments} language={language} />
          <form hidden data-needs-script>
            <h2>{w.comment}</h2>
            <label>
              {w.name}
              <input name="authorName" required maxLength={ENGAGEMENT_LIMITS.authorName} autoComplete="name" />
            </label>
            <label>
              {w.email}
              <input name="authorEmail" type="email" maxLength={ENGAGEMENT_LIMITS.authorEmail} autoComplete="email" />
            </label>
            <label>
              {w.message}
              <textarea name="content" required maxLength={ENGAGEMENT_LIMITS.content} />
            </label>
            <p>
              <button type="submit">{w.send}</button>
            </p>
          </form>
          <p class="status" role="status" aria-live="polite" />
        </section>
        <PostNav post={post} next={extras.next} images={chrome.images} />
      </article>
    </Layout>
  )
}
