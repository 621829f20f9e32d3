import type { ComponentChildren } from 'preact'
import { render } from 'preact-render-to-string'
import { LANGUAGES, nameIn, type Language } from '../../../shared/language.ts'
import type { ImageLookup } from '../../media/responsive.ts'
import type { CategoryRes } from '../../taxonomy/model.ts'
import { HTML_LANG, type Head } from '../head.ts'
import type { Publication } from '../snapshot.ts'
import type { PageNav } from '../page-nav.ts'
import { urlPathOf } from '../targets.ts'
import { Picture, SIZES } from './picture.tsx'
import { WORDS } from './words.ts'

/** JSON inside `<script type="application/ld+json">`: `<` escaped so no text can close the element. */
const jsonLdText = (value: object) => JSON.stringify(value).replace(/</g, '\\u003c')

const homePath = (language: Language) => urlPathOf({ kind: 'page.list', language, scope: { kind: 'home' }, page: 1 })

function HeadTags({ head, pub }: { head: Head; pub: Publication }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{head.title === pub.name ? head.title : `${head.title} · ${pub.name}`}</title>
      <meta name="description" content={head.description} />
      {head.noindex ? <meta name="robots" content="noindex" /> : null}
      {head.canonical ? <link rel="canonical" href={head.canonical} /> : null}
      {head.alternates.map((a) => (
        <link rel="alternate" hrefLang={a.hreflang} href={a.href} />
      ))}
      {head.feeds.map((f) => (
        <link rel="alternate" type={f.type} title={f.title} href={f.href} />
      ))}
      <meta property="og:type" content={head.og.type === 'product' ? 'website' : head.og.type} />
      <meta property="og:site_name" content={pub.name} />
      <meta property="og:locale" content={head.language === 'zh' ? 'zh_CN' : 'en_US'} />
      <meta property="og:title" content={head.og.title} />
      <meta property="og:description" content={head.og.description} />
      {head.canonical ? <meta property="og:url" content={head.canonical} /> : null}
      {head.og.image ? <meta property="og:image" content={head.og.image} /> : null}
      {head.og.image && head.og.imageAlt ? <meta property="og:image:alt" content={head.og.imageAlt} /> : null}
      <meta name="twitter:card" content={head.og.image ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content={head.og.title} />
      <meta name="twitter:description" content={head.og.description} />
      {head.og.image ? <meta name="twitter:image" content={head.og.image} /> : null}
      <link rel="icon" href={pub.iconUrl || urlPathOf({ kind: 'page.asset', name: 'icon' })} />
      <link rel="stylesheet" href={urlPathOf({ kind: 'page.asset', name: 'theme' })} />
      {head.jsonLd.map((data) => (
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />
      ))}
    </head>
  )
}

export interface Chrome {
  pub: Publication
  nav: CategoryRes[]
  /** Standalone pages the owner placed in the header or footer (docs/pages.md). */
  pageNav?: PageNav
  /** The same page in the other language, when there is one. */
  switchTo: { language: Language; href: string } | null
  script?: boolean
  /** Our uploads' variants and sizes (media/responsive.ts); without it every image is a plain `<img>`. */
  images?: ImageLookup
}

/** The share image (og:image, the JSON-LD image) as its largest variant when it is one of our uploads: the original may still carry the camera's EXIF. */
function shareable(head: Head, images: ImageLookup | undefined): Head {
  const image = head.og.image && images?.(head.og.image)
  if (!image || !image.srcset) return head
  const jsonLd = head.jsonLd.map((data) => ('image' in data && data.image === head.og.image ? { ...data, image: image.src } : data))
  return { ...head, og: { ...head.og, image: image.src }, jsonLd }
}

/** One layout for every page: head, header with navigation and language switch, main landmark, footer. */
export function Layout({ head, chrome, children }: { head: Head; chrome: Chrome; children: ComponentChildren }) {
  const { pub } = chrome
  const w = WORDS[head.language]
  const other = LANGUAGES.find((l) => l !== head.language)!
  const switchTo = chrome.switchTo ?? { language: other, href: homePath(other) }
  return (
    <html lang={HTML_LANG[head.language]}>
      <HeadTags head={shareable(head, chrome.images)} pub={pub} />
      <body>
        <a class="skip" href="#main">
          {w.skip}
        </a>
        <header class="site-header">
          <div class="bar">
            <a class="brand" href={homePath(head.language)}>
              {pub.iconUrl ? (
                <Picture src={pub.iconUrl} alt={pub.iconAlt} images={chrome.images} sizes={SIZES.icon} width={32} height={32} fixed />
              ) : null}
              <span>{pub.name}</span>
            </a>
            <nav class="site-nav" aria-label={w.categories}>
              {chrome.nav.map((c) => {
                const href = urlPathOf({ kind: 'page.list', language: head.language, scope: { kind: 'category', slug: c.slug }, page: 1 })
                return <a href={href}>{nameIn(head.language, c)}</a>
              })}
              {chrome.pageNav?.header.map((p) => (
                <a href={p.href}>{p.title}</a>
              ))}
              <a class="lang" href={switchTo.href} hrefLang={switchTo.language} lang={HTML_LANG[switchTo.language]}>
                {pub.labels[switchTo.language]}
              </a>
            </nav>
          </div>
        </header>
        <main id="main">{children}</main>
        <footer class="site-footer">
          <div class="bar">
            <span>{pub.name}</span>
            {pub.description ? <span>{pub.description}</span> : null}
            {chrome.pageNav?.footer.length ? (
              <nav class="page-links" aria-label={w.pages}>
                {chrome.pageNav.footer.map((p) => (
                  <a href={p.href}>{p.title}</a>
                ))}
              </nav>
            ) : null}
            <span>
              {w.feeds}: <a href={urlPathOf({ kind: 'page.feed', language: head.language, scope: { kind: 'home' }, format: 'rss' })}>RSS</a>
              {' · '}
              <a href={urlPathOf({ kind: 'page.feed', language: head.language, scope: { kind: 'home' }, format: 'atom' })}>Atom</a>
              {' · '}
              <a href={urlPathOf({ kind: 'page.feed', language: head.language, scope: { kind: 'home' }, format: 'json' })}>JSON Feed</a>
            </span>
          </div>
        </footer>
        {chrome.script ? <script src={urlPathOf({ kind: 'page.asset', name: 'engage' })} defer /> : null}
      </body>
    </html>
  )
}

/** A whole HTML document: the doctype, then the escaped-by-default render of the tree. */
export const htmlDocument = (node: preact.VNode): string => `<!doctype html>\n${render(node)}\n`
