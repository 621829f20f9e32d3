import { nameIn, type Language } from '../../../shared/language.ts'
import type { PostCard, PostRes } from '../../posts/model.ts'
import type { Neighbour } from '../neighbours.ts'
import { urlPathOf } from '../targets.ts'
import type { ImageLookup } from '../../media/responsive.ts'
import { Card } from './card.tsx'
import { WORDS } from './words.ts'

/**
 * Where a reader goes after a post, so no post ends in a dead end: the previous and next posts of
 * its category, its related posts (the category's next older ones) and a link to the category.
 */
export function PostNav({ post, next, images }: { post: PostRes; next: Neighbour | null; images?: ImageLookup }) {
  const language = post.language as Language
  const w = WORDS[language]
  const previous = post.relatedPosts[0]
  const href = (slug: string) => urlPathOf({ kind: 'page.post', language, slug })
  const category = post.category
  const categoryName = category ? nameIn(language, category) : ''
  return (
    <>
      {previous || next ? (
        <nav class="post-nav" aria-label={`${w.previous} / ${w.next}`}>
          {previous ? (
            <a class="previous" href={href(previous.slug)} rel="prev">
              <span>{w.previous}</span> {previous.title}
            </a>
          ) : null}
          {next ? (
            <a class="next" href={href(next.slug)} rel="next">
              <span>{w.next}</span> {next.title}
            </a>
          ) : null}
        </nav>
      ) : null}
      {post.relatedPosts.length || category ? (
        <section aria-labelledby="related-heading">
          <h2 id="related-heading">{category ? w.moreIn(categoryName) : w.related}</h2>
          {post.relatedPosts.length ? (
            <ul class="cards">
              {post.relatedPosts.map((card: PostCard) => (
                <li>
                  <Card card={card} level={3} images={images} />
                </li>
              ))}
            </ul>
          ) : null}
          {category ? (
            <p>
              <a href={urlPathOf({ kind: 'page.list', language, scope: { kind: 'category', slug: category.slug }, page: 1 })}>
                {w.moreIn(categoryName)} →
              </a>
            </p>
          ) : null}
        </section>
      ) : null}
    </>
  )
}
