import type { Head } from '../head.ts'
import type { ListPage, Publication } from '../snapshot.ts'
import { urlPathOf } from '../targets.ts'
import { Card } from './card.tsx'
import { AuthorBox, Crumbs } from './post.tsx'
import { Layout, type Chrome } from './layout.tsx'
import { WORDS } from './words.ts'

/** The title a list page carries: the publication on its home page, else the scope's name, plus the page number past 1. */
export function listTitle(pub: Publication, list: ListPage): string {
  const w = WORDS[pub.language]
  const kindWord = { home: '', category: w.category, tag: w.tag, author: w.author }[list.info.scope.kind]
  const base = list.info.scope.kind === 'home' ? pub.name : `${kindWord}: ${list.info.name}`
  return list.page > 1 ? `${base} · ${w.page(list.page)}` : base
}

export function ListPageView({ head, chrome, list, pub }: { head: Head; chrome: Chrome; list: ListPage; pub: Publication }) {
  const w = WORDS[pub.language]
  const at = (page: number) => urlPathOf({ kind: 'page.list', language: pub.language, scope: list.info.scope, page })
  const home = list.info.scope.kind === 'home'
  return (
    <Layout head={head} chrome={chrome}>
      <header class="page-head">
        {home ? null : (
          <Crumbs
            items={[
              {
                name: pub.name,
                url: `${pub.siteUrl}${urlPathOf({ kind: 'page.list', language: pub.language, scope: { kind: 'home' }, page: 1 })}`,
              },
              { name: list.info.name, url: `${pub.siteUrl}${at(list.page)}` },
            ]}
            label={w.breadcrumb}
          />
        )}
        <h1>{home ? (list.page > 1 ? `${w.latest} · ${w.page(list.page)}` : w.latest) : listTitle(pub, list)}</h1>
        {home && pub.description ? <p>{pub.description}</p> : null}
        {!home && list.info.description && !list.info.author ? <p>{list.info.description}</p> : null}
      </header>
      {list.info.author ? <AuthorBox author={list.info.author} pub={pub} heading={w.about} images={chrome.images} /> : null}
      {list.cards.length ? (
        <ul class="cards">
          {list.cards.map((card, index) => (
            <li>
              <Card card={card} level={2} index={index} images={chrome.images} />
            </li>
          ))}
        </ul>
      ) : (
        <p>{w.noPosts}</p>
      )}
      {list.pages > 1 ? (
        <nav class="pager" aria-label={w.pagination}>
          {list.page > 1 ? (
            <a href={at(list.page - 1)} rel="prev">
              {w.newer}
            </a>
          ) : (
            <span />
          )}
          {list.page < list.pages ? (
            <a href={at(list.page + 1)} rel="next">
              {w.older}
            </a>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </Layout>
  )
}
