import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { Fields, requestOf, valuesOf, type FieldSpec, type Values } from '../forms.tsx'
import { t, type Key } from '../i18n.ts'
import { ErrorNote, Section, useLoad } from '../ui.tsx'

/** What every category, tag and author record has; the rest is described by the page's fields. */
export interface StoredRecord {
  id: number
  slug: string
  status: number
  [field: string]: unknown
}

export interface RecordsConfig {
  title: Key
  newTitle: Key
  /** The console's list of every record, disabled ones too. */
  listPath: string
  /** The API's own save route (create without an id, update with one). */
  savePath: string
  fields: readonly FieldSpec[]
  blank: Values
  nameOf: (record: StoredRecord) => string
}

/**
 * A list of records with a form that creates one or edits the one chosen, and enable/disable
 * buttons: the categories, tags and authors pages. Every write is the API's save route, so
 * the audit log records it.
 */
export function RecordsPage({ config }: { config: RecordsConfig }) {
  const list = useLoad(() => api<StoredRecord[]>('GET', config.listPath), [config.listPath])
  const [editing, setEditing] = useState<StoredRecord | null>(null)
  const [values, setValues] = useState<Values>(config.blank)
  const [error, setError] = useState<unknown>(null)
  const reset = () => {
    setEditing(null)
    setValues(config.blank)
  }
  const send = (body: Record<string, unknown>) =>
    api('POST', config.savePath, body).then(() => {
      setError(null)
      void list.reload()
      return true
    }, setError)
  const save = (event: Event) => {
    event.preventDefault()
    void send({ ...(editing ? { id: editing.id } : {}), ...requestOf(config.fields, values) }).then((ok) => ok && reset())
  }
  const edit = (record: StoredRecord) => {
    setEditing(record)
    setValues(valuesOf(config.fields, record))
    document.getElementById(`field-record-${config.fields[0]!.key}`)?.focus()
  }
  const toggle = (record: StoredRecord) =>
    send({ id: record.id, ...requestOf(config.fields, valuesOf(config.fields, record)), status: record.status === 1 ? 0 : 1 })
  return (
    <>
      <h1>{t(config.title)}</h1>
      <ErrorNote error={error ?? list.error} />
      <form class="card" onSubmit={save}>
        <h2>{editing ? `${t('tax.editing')}: ${config.nameOf(editing)}` : t(config.newTitle)}</h2>
        <Fields form="record" fields={config.fields} values={values} onChange={setValues} />
        <div class="actions">
          <button type="submit">{t('save')}</button>
          {editing && (
            <button type="button" onClick={reset}>
              {t('cancel')}
            </button>
          )}
        </div>
      </form>
      <Section title={t(config.title)}>
        {list.data?.length === 0 && <p>{t('tax.none')}</p>}
        <ul class="rows">
          {list.data?.map((record) => (
            <li key={record.id} aria-label={config.nameOf(record)}>
              <span>
                <strong>{config.nameOf(record)}</strong> · <code>{record.slug}</code> · {record.status === 1 ? t('enabled') : t('disabled')}
              </span>
              <span class="actions">
                <button type="button" onClick={() => edit(record)}>
                  {t('edit')}
                </button>
                <button type="button" onClick={() => toggle(record)}>
                  {record.status === 1 ? t('disable') : t('enable')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      </Section>
    </>
  )
}
