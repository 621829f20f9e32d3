import { useState } from 'preact/hooks'
import type { PageCardRes, PageRes } from '../../../pages/model.ts'
import { api } from '../api.ts'
import { t } from '../i18n.ts'
import { ErrorNote, Field, Section, useLoad } from '../ui.tsx'

const BASE = '/api/v1/blog/pages'

/** A labelled select of fixed options. */
function Choice(props: { label: string; name: string; value: string; options: [string, string][]; onChange: (v: string) => void }) {
  const id = `field-${props.name}`
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange((e.currentTarget as HTMLSelectElement).value)}>
        {props.options.map(([value, label]) => (
          <option value={value}>{label}</option>
        ))}
      </select>
    </div>
  )
}

/**
 * Standalone pages (docs/pages.md): the list with publish and unpublish, and a simple form for a
 * new page (Markdown body). The same API routes and scopes as any client.
 */
export function Pages() {
  const pages = useLoad(() => api<PageCardRes[]>('GET', '/api/admin/blog/pages'))
  const [error, setError] = useState<unknown>(null)
  const [language, setLanguage] = useState('en')
  const [title, setTitle] = useState('')
  const [slug, setSlug] = useState('')
  const [body, setBody] = useState('')
  const [nav, setNav] = useState('none')
  const [order, setOrder] = useState('0')
  const done = () => {
    setError(null)
    void pages.reload()
  }
  const save = (event: Event) => {
    event.preventDefault()
    const req = { language, title, slug, contentMarkdown: body, navPlacement: nav, navOrder: Number(order) || 0 }
    api<PageRes>('POST', `${BASE}/save`, req).then(() => {
      setTitle('')
      setSlug('')
      setBody('')
      done()
    }, setError)
  }
  const move = (page: PageCardRes, verb: 'publish' | 'unpublish') => api('POST', `${BASE}/${page.id}/${verb}`).then(done, setError)
  return (
    <>
      <h1>{t('pagesTitle')}</h1>
      <ErrorNote error={error ?? pages.error} />
      <Section title={t('navPages')}>
        {pages.data?.length === 0 && <p>{t('noPages')}</p>}
        <ul class="rows">
          {pages.data?.map((p) => (
            <li key={p.id}>
              <span>
                <a href={p.url}>{p.title}</a> · {p.language} · /{p.slug} · {p.status === 1 ? t('pagePublished') : t('pageDraft')} ·{' '}
                {p.navPlacement}
              </span>
              <button
                type="button"
                onClick={() => move(p, p.status === 1 ? 'unpublish' : 'publish')}
                aria-label={`${p.status === 1 ? t('unpublishPage') : t('publishPage')} ${p.title}`}
              >
                {p.status === 1 ? t('unpublishPage') : t('publishPage')}
              </button>
            </li>
          ))}
        </ul>
      </Section>
      <form class="card" onSubmit={save}>
        <h2>{t('newPage')}</h2>
        <Choice
          label={t('pageLanguage')}
          name="page-language"
          value={language}
          options={[
            ['en', 'English'],
            ['zh', '中文'],
          ]}
          onChange={setLanguage}
        />
        <Field label={t('pageTitle')} name="page-title" value={title} onInput={setTitle} />
        <Field label={t('pageSlug')} name="page-slug" value={slug} onInput={setSlug} required={false} />
        <div class="field">
          <label for="field-page-body">{t('pageBody')}</label>
          <textarea
            id="field-page-body"
            rows={8}
            value={body}
            required
            onInput={(e) => setBody((e.currentTarget as HTMLTextAreaElement).value)}
          />
        </div>
        <Choice
          label={t('pageNav')}
          name="page-nav"
          value={nav}
          options={[
            ['none', t('pageNavNone')],
            ['header', t('pageNavHeader')],
            ['footer', t('pageNavFooter')],
          ]}
          onChange={setNav}
        />
        <Field label={t('pageNavOrder')} name="page-order" value={order} onInput={setOrder} required={false} />
        <button type="submit">{t('savePage')}</button>
      </form>
    </>
  )
}
