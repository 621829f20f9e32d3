import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { t } from '../i18n.ts'
import { ErrorNote, Section, useLoad } from '../ui.tsx'

interface Counts {
  created: number
  updated: number
  unchanged: number
}
interface ImportCounts {
  categories: Counts
  resources: Counts
}
interface ResourceCategory {
  code: string
  nameEn: string
  nameZh: string
  children?: ResourceCategory[]
}

function Tree({ nodes }: { nodes: ResourceCategory[] }) {
  return (
    <ul>
      {nodes.map((n) => (
        <li key={n.code}>
          <code>{n.code}</code> {n.nameEn} {n.nameZh && `/ ${n.nameZh}`}
          {n.children?.length ? <Tree nodes={n.children} /> : null}
        </li>
      ))}
    </ul>
  )
}

/** The resources catalogue: import a file (the CLI's `resources import`), see what it changed, and the category tree. */
export function Resources() {
  const tree = useLoad(() => api<ResourceCategory[]>('GET', '/api/v1/blog/resources/categories'))
  const [file, setFile] = useState<File | null>(null)
  const [result, setResult] = useState<ImportCounts | null>(null)
  const [error, setError] = useState<unknown>(null)
  const upload = (event: Event) => {
    event.preventDefault()
    if (!file) return
    const body = new FormData()
    body.append('file', file)
    setResult(null)
    api<ImportCounts>('POST', '/api/admin/blog/resources/import', body).then((counts) => {
      setError(null)
      setResult(counts)
      void tree.reload()
    }, setError)
  }
  return (
    <>
      <h1>{t('res.title')}</h1>
      <form class="card" onSubmit={upload}>
        <div class="field">
          <label for="resources-file">{t('res.file')}</label>
          <input
            id="resources-file"
            type="file"
            accept="application/json,.json"
            aria-describedby="resources-file-hint"
            onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
          />
          <p class="hint" id="resources-file-hint">
            {t('res.hint')}
          </p>
        </div>
        <button type="submit" disabled={!file}>
          {t('res.import')}
        </button>
      </form>
      {/* A refusal's message lists the faults one a line. */}
      <div class="faults">
        <ErrorNote error={error ?? tree.error} />
      </div>
      {result && (
        <Section title={t('res.result')}>
          <table>
            <thead>
              <tr>
                <th scope="col"></th>
                <th scope="col">{t('res.created')}</th>
                <th scope="col">{t('res.updated')}</th>
                <th scope="col">{t('res.unchanged')}</th>
              </tr>
            </thead>
            <tbody>
              {(['categories', 'resources'] as const).map((list) => (
                <tr key={list}>
                  <th scope="row">{t(`res.${list}`)}</th>
                  <td>{result[list].created}</td>
                  <td>{result[list].updated}</td>
                  <td>{result[list].unchanged}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
      )}
      <Section title={t('res.tree')}>{tree.data && <Tree nodes={tree.data} />}</Section>
    </>
  )
}
