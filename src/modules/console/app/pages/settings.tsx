import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { Fields, requestOf, valuesOf, type FieldSpec, type Values } from '../forms.tsx'
import { t } from '../i18n.ts'
import { ErrorNote, useLoad } from '../ui.tsx'

const FIELDS: readonly FieldSpec[] = [
  { key: 'nameEn', label: 'set.nameEn' },
  { key: 'nameZh', label: 'set.nameZh' },
  { key: 'descriptionEn', label: 'set.descriptionEn', kind: 'textarea' },
  { key: 'descriptionZh', label: 'set.descriptionZh', kind: 'textarea' },
  { key: 'labelEn', label: 'set.labelEn' },
  { key: 'labelZh', label: 'set.labelZh' },
  { key: 'iconUrl', label: 'set.iconUrl', kind: 'image' },
  { key: 'iconAlt', label: 'set.iconAlt' },
]

/** The publication's names, descriptions, language labels and icon: the public settings route, saved through the admin one. */
export function Settings() {
  const stored = useLoad(() => api<Record<string, string>>('GET', '/api/v1/blog/publication-settings'))
  const [values, setValues] = useState<Values | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [saved, setSaved] = useState(false)
  useEffect(() => {
    if (stored.data) setValues(valuesOf(FIELDS, stored.data))
  }, [stored.data])
  const save = (event: Event) => {
    event.preventDefault()
    api('POST', '/api/admin/blog/publication-settings/save', requestOf(FIELDS, values!)).then(() => {
      setError(null)
      setSaved(true)
    }, setError)
  }
  return (
    <>
      <h1>{t('set.title')}</h1>
      <ErrorNote error={error ?? stored.error} />
      {values && (
        <form class="card" onSubmit={save}>
          <Fields
            form="settings"
            fields={FIELDS}
            values={values}
            onChange={(next) => {
              setSaved(false)
              setValues(next)
            }}
          />
          {values.iconUrl && <img class="icon-preview" src={values.iconUrl} alt={values.iconAlt} />}
          <button type="submit">{t('save')}</button>
          {saved && (
            <p class="ok" role="status">
              {t('set.saved')}
            </p>
          )}
        </form>
      )}
    </>
  )
}
