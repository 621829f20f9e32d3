import { useState } from 'preact/hooks'
import { api } from './api.ts'
import { t, type Key } from './i18n.ts'
import { ErrorNote, Field } from './ui.tsx'

/** One field of a record form: text, a longer text, a whole number, a choice, or an image URL with its upload. */
export interface FieldSpec {
  key: string
  label: Key
  kind?: 'text' | 'textarea' | 'number' | 'image' | 'choice'
  choices?: readonly { value: string; label: Key }[]
  hint?: Key
  required?: boolean
}

export type Values = Record<string, string>

/** A multi-line text with a visible label. */
function TextArea(props: { id: string; label: string; value: string; onInput: (value: string) => void; hint?: string }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <textarea
        id={props.id}
        rows={3}
        value={props.value}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        onInput={(e) => props.onInput((e.currentTarget as HTMLTextAreaElement).value)}
      />
      {props.hint && (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  )
}

/**
 * An image's URL and a file picker beside it: the picked file goes through the media upload
 * endpoint (the same one API clients use) and its answered URL fills the field.
 */
export function ImageField(props: { name: string; label: string; value: string; onInput: (value: string) => void }) {
  const file = `field-${props.name}-file`
  const [error, setError] = useState<unknown>(null)
  const pick = (event: Event) => {
    const file = (event.currentTarget as HTMLInputElement).files?.[0]
    if (!file) return
    const body = new FormData()
    body.append('file', file)
    api<string>('POST', '/api/v1/blog/media/upload', body).then((url) => {
      setError(null)
      props.onInput(url)
    }, setError)
  }
  return (
    <>
      <Field label={props.label} name={props.name} type="url" value={props.value} onInput={props.onInput} required={false} />
      <div class="field">
        <label for={file}>{t('upload')}</label>
        <input id={file} type="file" accept="image/*" aria-describedby={`${file}-hint`} onChange={pick} />
        <p class="hint" id={`${file}-hint`}>
          {t('uploadHint')}
        </p>
        <ErrorNote error={error} />
      </div>
    </>
  )
}

/** The controls of `fields`, reading and writing `values`; ids are prefixed by `form` so two forms can share a page. */
export function Fields(props: { form: string; fields: readonly FieldSpec[]; values: Values; onChange: (values: Values) => void }) {
  return (
    <>
      {props.fields.map((f) => {
        // The same id scheme as Field's (`field-<name>`), whatever the kind of control.
        const name = `${props.form}-${f.key}`
        const id = `field-${name}`
        const value = props.values[f.key] ?? ''
        const set = (next: string) => props.onChange({ ...props.values, [f.key]: next })
        const hint = f.hint ? t(f.hint) : undefined
        if (f.kind === 'textarea') return <TextArea key={id} id={id} label={t(f.label)} value={value} onInput={set} hint={hint} />
        if (f.kind === 'image') return <ImageField key={id} name={name} label={t(f.label)} value={value} onInput={set} />
        if (f.kind === 'choice')
          return (
            <div class="field" key={id}>
              <label for={id}>{t(f.label)}</label>
              <select id={id} value={value} onChange={(e) => set((e.currentTarget as HTMLSelectElement).value)}>
                {f.choices!.map((c) => (
                  <option key={c.value} value={c.value}>
                    {t(c.label)}
                  </option>
                ))}
              </select>
            </div>
          )
        return <Field key={id} label={t(f.label)} name={name} value={value} onInput={set} hint={hint} required={f.required ?? false} />
      })}
    </>
  )
}

/** Form values as the API's request: numbers as numbers, blank optional numbers left out. */
export function requestOf(fields: readonly FieldSpec[], values: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    const value = values[f.key] ?? ''
    if (f.kind === 'number') {
      if (value.trim() !== '') out[f.key] = Number(value)
    } else out[f.key] = value
  }
  return out
}

/** A stored record as form values (every field a string). */
export const valuesOf = (fields: readonly FieldSpec[], record: Record<string, unknown>): Values =>
  Object.fromEntries(fields.map((f) => [f.key, record[f.key] === undefined || record[f.key] === null ? '' : String(record[f.key])]))
