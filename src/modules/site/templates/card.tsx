import type { Language } from '../../../shared/language.ts'
import type { PostCard } from '../../posts/model.ts'
import type { ImageLookup } from '../../media/responsive.ts'
import { urlPathOf } from '../targets.ts'
import { Picture, SIZES } from './picture.tsx'
import { readableDate } from './words.ts'

/** Cards of a list page that are in the first screenful on a phone: their covers load at once, the first one first (the LCP image). */
const EAGER_CARDS = 2

/** A post in a list: cover, title linking to the page, summary, date. `index` is its place on a list page (0 first), absent elsewhere. */
export function Card({ card, level, index, images }: { card: PostCard; level: 2 | 3; index?: number; images?: ImageLookup | undefined }) {
  const language = card.language as Language
  const href = urlPathOf({ kind: 'page.post', language, slug: card.slug })
  const Heading = level === 2 ? 'h2' : 'h3'
  return (
    <article class="card">
      {card.coverImage ? (
        <Picture
          src={card.coverImage}
          alt={card.coverAlt}
          images={images}
          sizes={SIZES.card}
          width={1600}
          height={900}
          loading={index !== undefined && index < EAGER_CARDS ? 'eager' : 'lazy'}
          fetchpriority={index === 0 ? 'high' : undefined}
        />
      ) : null}
      <Heading>
        <a href={href}>{card.title}</a>
      </Heading>
      {card.summary ? <p>{card.summary}</p> : null}
      {card.publishedAt ? (
        <p>
          <time dateTime={card.publishedAt.replace(' ', 'T') + 'Z'}>{readableDate(card.publishedAt, language)}</time>
        </p>
      ) : null}
    </article>
  )
}
