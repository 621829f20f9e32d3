import { useState } from 'preact/hooks'
import { api, type Page } from '../api.ts'
import { localTime, takeOffline } from '../editor/verbs.ts'
import { t, type Key } from '../i18n.ts'
import { navigate } from '../nav.ts'
import { ErrorNote, FilterInput, FilterSelect, Pager, useLoad, type Option } from '../ui.tsx'

interface PostRow {
  id: number
  language: 'en' | 'zh'
  title: string
  slug: string
  status: number
  seoScore: number
  aeoScore: number
  scheduledAt: string | null
  partner: { id: number; language: string; slug: string } | null
  lastEditor: string
  updatedTime: string
}

const STATES: { value: string; label: Key }[] = [
  { value: '', label: 'anyState' },
  { value: 'draft', label: 'stateDraft' },
  { value: 'scheduled', label: 'stateScheduled' },
  { value: 'published', label: 'statePublished' },
  { value: 'offline', label: 'stateOffline' },
]
const SORTS: { value: string; label: Key }[] = [
  { value: 'updated', label: 'sortUpdated' },
  { value: 'created', label: 'sortCreated' },
  { value: 'title', label: 'sortTitle' },
  { value: 'seoScore', label: 'sortSeo' },
  { value: 'aeoScore', label: 'sortAeo' },
]
const STATE_OF = ['stateDraft', 'statePublished', 'stateOffline'] as const

type Filters = Record<'language' | 'state' | 'categoryId' | 'tagId' | 'authorId' | 'minScore' | 'maxScore' | 'keyword' | 'sort', string>
const NO_FILTERS: Filters = {
  language: '',
  state: '',
  categoryId: '',
  tagId: '',
  authorId: '',
  minScore: '',
  maxScore: '',
  keyword: '',
  sort: 'updated',
}

/** `/admin/posts`: every post in every state, filtered, sorted, with its scores and translation (docs/editor.md). */
export function Posts() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS)
  const [current, setCurrent] = useState(1)
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [error, setError] = useState<unknown>(null)
  const query = new URLSearchParams(Object.entries({ ...filters, current: String(current) }).filter(([, v]) => v !== ''))
  const list = useLoad(() => api<Page<PostRow>>('GET', `/api/admin/blog/posts?${query}`), [query.toString()])
  const taxonomy = useLoad(() =>
    Promise.all([
      api<{ id: number; nameEn: string }[]>('GET', '/api/v1/blog/categories'),
      api<{ id: number; nameEn: string }[]>('GET', '/api/v1/blog/tags?language=all'),
      api<{ id: number; name: string }[]>('GET', '/api/v1/blog/authors'),
    ]),
  )
  const [categories, tags, authors] = taxonomy.data ?? [[], [], []]
  const setFilter = (key: keyof Filters) => (value: string) => {
    setFilters({ ...filters, [key]: value })
    setCurrent(1)
  }
  const any = { value: '', label: t('anyOption') }
  // The selects left of the score bounds: the filter each sets, its control's id, label and options.
  const filterSelects: [keyof Filters, string, Key, Option[]][] = [
    [
      'language',
      'posts-language',
      'filterLanguage',
      [
        { value: '', label: t('allLanguages') },
        { value: 'en', label: 'English' },
        { value: 'zh', label: '中文' },
      ],
    ],
    ['state', 'posts-state', 'filterState', STATES.map((s) => ({ value: s.value, label: t(s.label) }))],
    ['categoryId', 'posts-category', 'filterCategory', [any, ...categories.map((c) => ({ value: String(c.id), label: c.nameEn }))]],
    ['tagId', 'posts-tag', 'filterTag', [any, ...tags.map((c) => ({ value: String(c.id), label: c.nameEn }))]],
    ['authorId', 'posts-author', 'filterAuthor', [any, ...authors.map((a) => ({ value: String(a.id), label: a.name }))]],
  ]
  const offline = async () => {
    setError(null)
    try {
      for (const id of selected) await takeOffline(id)
    } catch (e) {
      setError(e)
    }
    setSelected(new Set())
    void list.reload()
  }
  const open = (path: string) => (e: Event) => (e.preventDefault(), navigate(path))
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.size)) : 1
  return (
    <>
      <h1>{t('posts')}</h1>
      <div class="toolbar">
        <a class="button" href="/admin/editor" onClick={open('/admin/editor')}>
          {t('newPost')}
        </a>
        <FilterInput id="posts-search" label="search" type="search" value={filters.keyword} onChange={setFilter('keyword')} />
        {filterSelects.map(([key, id, label, options]) => (
          <FilterSelect key={id} id={id} label={label} value={filters[key]} onChange={setFilter(key)} options={options} />
        ))}
        {(['min', 'max'] as const).map((bound) => (
          <FilterInput
            key={bound}
            id={`posts-${bound}`}
            label={`${bound}Score`}
            type="number"
            min="0"
            max="100"
            value={filters[`${bound}Score`]}
            onChange={setFilter(`${bound}Score`)}
          />
        ))}
        <FilterSelect
          id="posts-sort"
          label="sortBy"
          value={filters.sort}
          onChange={setFilter('sort')}
          options={SORTS.map((s) => ({ value: s.value, label: t(s.label) }))}
        />
        <button type="button" disabled={selected.size === 0} onClick={offline}>
          {t('takeOffline')}
        </button>
      </div>
      <ErrorNote error={error ?? list.error} />
      {list.data?.records.length === 0 && <p>{t('noPosts')}</p>}
      {!!list.data?.records.length && (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">
                  <span class="sr">{t('select')}</span>
                </th>
                <th scope="col">{t('colTitle')}</th>
                <th scope="col">{t('colState')}</th>
                <th scope="col">{t('colScores')}</th>
                <th scope="col">{t('colPartner')}</th>
                <th scope="col">{t('colSchedule')}</th>
                <th scope="col">{t('colEditor')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.records.map((p) => (
                <tr key={p.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${t('select')} ${p.title}`}
                      checked={selected.has(p.id)}
                      onChange={() => {
                        const next = new Set(selected)
                        if (!next.delete(p.id)) next.add(p.id)
                        setSelected(next)
                      }}
                    />
                  </td>
                  <td lang={p.language === 'zh' ? 'zh-CN' : 'en'}>
                    <a href={`/admin/editor?id=${p.id}`} onClick={open(`/admin/editor?id=${p.id}`)}>
                      {p.title}
                    </a>{' '}
                    <span class="hint">{p.language}</span>
                  </td>
                  <td>{t(STATE_OF[p.status]!)}</td>
                  <td>
                    {p.seoScore} / {p.aeoScore}
                  </td>
                  <td>
                    {p.partner ? (
                      <a href={`/admin/editor?id=${p.partner.id}`} onClick={open(`/admin/editor?id=${p.partner.id}`)}>
                        {t('openTranslation')} ({p.partner.language})
                      </a>
                    ) : (
                      <a href={`/admin/editor?translate=${p.id}`}>{t('writeTranslation')}</a>
                    )}
                  </td>
                  <td>{p.scheduledAt ? localTime(p.scheduledAt) : '—'}</td>
                  <td>{p.lastEditor || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager current={current} pages={pages} onPage={setCurrent} />
    </>
  )
}
