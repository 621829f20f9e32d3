import { LANGUAGES, type Language } from '../../../shared/language.ts'
import { RESOURCE_STATUS, type ResourceRes } from '../../resources/model.ts'
import { HTML_LANG, productName, productSummary, type Head } from '../head.ts'
import type { Publication } from '../snapshot.ts'
import { urlPathOf } from '../targets.ts'
import { Crumbs } from './post.tsx'
import { Layout, type Chrome } from './layout.tsx'
import { WORDS } from './words.ts'

export function ProductPageView({ head, chrome, product, pub }: { head: Head; chrome: Chrome; product: ResourceRes; pub: Publication }) {
  const w = WORDS[pub.language]
  const name = productName(product, pub.language)
  const summary = productSummary(product, pub.language)
  const home = urlPathOf({ kind: 'page.list', language: pub.language, scope: { kind: 'home' }, page: 1 })
  return (
    <Layout head={head} chrome={chrome}>
      <article class="narrow">
        <Crumbs
          items={[
            { name: pub.name, url: `${pub.siteUrl}${home}` },
            { name, url: `${pub.siteUrl}${product.links[pub.language]}` },
          ]}
          label={w.breadcrumb}
        />
        <h1>{name}</h1>
        {summary ? <p class="lede">{summary}</p> : null}
        <dl class="card">
          {product.categoryName ? (
            <>
              <dt>{w.category}</dt>
              <dd>{product.categoryName}</dd>
            </>
          ) : null}
          <dt>{w.price}</dt>
          <dd>{product.displayPriceText} USDT</dd>
          <dt>{product.status === RESOURCE_STATUS.outOfStock ? w.outOfStock : w.inStock}</dt>
        </dl>
      </article>
    </Layout>
  )
}

/** A link to each language's home page, each labelled in its own language. */
const HomeLinks = ({ label }: { label: (language: Language) => string }) => (
  <ul>
    {LANGUAGES.map((language) => (
      <li>
        <a
          href={urlPathOf({ kind: 'page.list', language, scope: { kind: 'home' }, page: 1 })}
          hrefLang={language}
          lang={HTML_LANG[language]}
        >
          {label(language)}
        </a>
      </li>
    ))}
  </ul>
)

/** `/`: a choice between the two languages, each labelled in its own language. */
export function RootPageView({ head, chrome }: { head: Head; chrome: Chrome }) {
  const { pub } = chrome
  return (
    <Layout head={head} chrome={chrome}>
      <section class="choice" aria-labelledby="choose">
        <h1 id="choose">{pub.name}</h1>
        {pub.description ? <p>{pub.description}</p> : null}
        <p>
          {WORDS.en.choose} · <span lang="zh-CN">{WORDS.zh.choose}</span>
        </p>
        <HomeLinks label={(language) => pub.labels[language]} />
      </section>
    </Layout>
  )
}

/** The 404 page, in both languages, since an unknown path says nothing about the reader's. */
export function NotFoundPageView({ head, chrome }: { head: Head; chrome: Chrome }) {
  return (
    <Layout head={head} chrome={chrome}>
      <section class="choice">
        <h1>{WORDS.en.notFound}</h1>
        <p>{WORDS.en.notFoundText}</p>
        <p lang="zh-CN">
          <strong>{WORDS.zh.notFound}</strong> {WORDS.zh.notFoundText}
        </p>
        <HomeLinks label={(language) => `${WORDS[language].home} · ${chrome.pub.labels[language]}`} />
      </section>
    </Layout>
  )
}
