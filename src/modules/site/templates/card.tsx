import type { Language } from '../../../shared/language.ts'
import type { PostCard } from '../../posts/model.ts'
import { urlPathOf } from '../targets.ts'
import { readableDate } from './words.ts'

/** A post in a list: cover, title linking to the page, summary, date. */
export function Card({ card, level }: { card: PostCard; level: 2 | 3 }) {
  const language = card.language as Language
  const href = urlPathOf({ kind: 'page.post', language, slug: card.slug })
  const Heading = level === 2 ? 'h2' : 'h3'
  return (
    <article class="card">
      {card.coverImage ? <img src={card.coverImage} alt={card.coverAlt} loading="lazy" /> : null}
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
