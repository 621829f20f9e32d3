import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from './api.ts'
import { t, type Key } from './i18n.ts'

/** A labelled input: every control has a visible label (tests find them with getByLabel). */
export function Field(props: {
  label: string
  name: string
  type?: 'text' | 'email' | 'password' | 'url'
  value: string
  onInput: (value: string) => void
  autocomplete?: string
  hint?: string
  required?: boolean
}) {
  const id = `field-${props.name}`
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        autocomplete={props.autocomplete}
        required={props.required ?? true}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onInput={(event) => props.onInput((event.currentTarget as HTMLInputElement).value)}
      />
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  )
}

/** A refusal shown in words, announced to screen readers. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null
  const message = error instanceof ApiError ? error.message : String(error)
  return (
    <p class="error" role="alert">
      {t('error')}: {message}
    </p>
  )
}

/**
 * Loads `load` when `deps` change; `reload` loads again with the newest `load`, whichever render
 * it was taken from. Only the newest run's answer is shown, so a slow answer to an older filter
 * never overwrites the list the user now asks for.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({})
  const latest = useRef(load)
  const runs = useRef(0)
  latest.current = load
  const run = () => {
    const mine = ++runs.current
    return latest.current().then(
      (data) => mine === runs.current && setState({ data }),
      (error) => mine === runs.current && setState({ error }),
    )
  }
  useEffect(() => void run(), deps)
  return { ...state, reload: run }
}

export const Section = (props: { title: string; children: ComponentChildren }) => (
  <section class="card" aria-label={props.title}>
    <h2>{props.title}</h2>
    {props.children}
  </section>
)

/** A labelled group of checkboxes choosing some of `options` (scopes, events). */
export function CheckboxGroup(props: {
  legend: string
  options: readonly string[]
  chosen: string[]
  onChange: (chosen: string[]) => void
}) {
  const toggle = (option: string) =>
    props.onChange(props.chosen.includes(option) ? props.chosen.filter((o) => o !== option) : [...props.chosen, option])
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.options.map((option) => (
        <label class="check" key={option}>
          <input type="checkbox" checked={props.chosen.includes(option)} onChange={() => toggle(option)} /> {option}
        </label>
      ))}
    </fieldset>
  )
}

/** Previous/next over `pages` pages of a list. */
export function Pager(props: { current: number; pages: number; onPage: (page: number) => void }) {
  if (props.pages <= 1) return null
  return (
    <nav class="pager" aria-label={t('page')}>
      <button type="button" disabled={props.current <= 1} onClick={() => props.onPage(props.current - 1)}>
        {t('previous')}
      </button>
      <span>
        {t('page')} {props.current} / {props.pages}
      </span>
      <button type="button" disabled={props.current >= props.pages} onClick={() => props.onPage(props.current + 1)}>
        {t('next')}
      </button>
    </nav>
  )
}

export interface Option {
  value: string
  label: string
}

/** A labelled select over `options` (value, label; `''` is "none"): the editor's fields, and with `inline` a list's filters. */
export function Select(props: {
  id: string
  label: Key
  value: string
  options: readonly Option[]
  onChange: (value: string) => void
  inline?: boolean
}) {
  return (
    <div class={props.inline ? 'field inline' : 'field'}>
      <label for={props.id}>{t(props.label)}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
}

/** One filter (or the sort) of a list's toolbar: a select beside the others. */
export const FilterSelect = (props: {
  id: string
  label: Key
  value: string
  options: readonly Option[]
  onChange: (value: string) => void
}) => <Select {...props} inline />

/** A typed filter of a list's toolbar (a search box, a score bound), applied when it changes. */
export function FilterInput(props: {
  id: string
  label: Key
  type: 'search' | 'number'
  value: string
  onChange: (value: string) => void
  min?: string
  max?: string
}) {
  return (
    <div class="field inline">
      <label for={props.id}>{t(props.label)}</label>
      <input
        id={props.id}
        type={props.type as 'text'}
        min={props.min}
        max={props.max}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
    </div>
  )
}
